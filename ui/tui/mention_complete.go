package tui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// completeMentionText completes an @path being typed at the end of text, as
// Claude Code's input completes a file mention: the last word, when it
// starts with '@', is a path relative to the workspace ("~/" and absolute
// ones too); list(dir) names dir's entries ("" is the workspace itself;
// directories end in "/"). One match is completed (a file with a space after
// it, a directory with its "/", to go on); several complete to the prefix
// they share and are the candidates; names starting with "." are offered only
// once a "." is typed. ok is false when the last word is no @path (Tab then
// does what it does elsewhere).
func completeMentionText(text string, list func(dir string) []string) (completed string, candidates []string, ok bool) {
	start := strings.LastIndexAny(text, " \t\n(") + 1
	word := text[start:]
	if !strings.HasPrefix(word, "@") {
		return text, nil, false
	}
	partial := word[1:]
	dir, base := "", partial
	if i := strings.LastIndexByte(partial, '/'); i >= 0 {
		dir, base = partial[:i+1], partial[i+1:]
	}
	for _, name := range list(dir) {
		if strings.HasPrefix(name, base) && (strings.HasPrefix(base, ".") || !strings.HasPrefix(name, ".")) {
			candidates = append(candidates, name)
		}
	}
	slices.Sort(candidates)
	if len(candidates) == 0 {
		return text, nil, true
	}
	common := candidates[0]
	for _, c := range candidates[1:] {
		for !strings.HasPrefix(c, common) {
			common = common[:len(common)-1]
		}
	}
	completed = text[:start] + "@" + dir + common
	if len(candidates) == 1 && !strings.HasSuffix(common, "/") {
		completed += " "
	}
	return completed, candidates, true
}

// mentionLister lists a directory of an @path for completeMentionText:
// relative to root, "~/" to the home directory, or absolute; names only
// (directories with "/"), nothing on an error.
func mentionLister(root string) func(dir string) []string {
	return func(dir string) []string {
		path := dir
		switch {
		case strings.HasPrefix(dir, "~/"):
			home, err := os.UserHomeDir()
			if err != nil {
				return nil
			}
			path = filepath.Join(home, dir[2:])
		case !filepath.IsAbs(dir):
			if root == "" {
				return nil
			}
			path = filepath.Join(root, dir)
		}
		entries, err := os.ReadDir(path)
		if err != nil {
			return nil
		}
		out := make([]string, 0, len(entries))
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() {
				name += "/"
			}
			out = append(out, name)
		}
		return out
	}
}

// completeMention is Tab on an @path being typed in the input box
// (completeMentionText over the workspace): it completes, or lists the
// candidates on the notices line; it reports whether the text ended in an
// @path (Tab then never moves the focus).
func (w *Workbench) completeMention() bool {
	text := w.input.GetText()
	completed, candidates, ok := completeMentionText(text, mentionLister(w.workspaceRoot()))
	switch {
	case !ok:
		return false
	case completed != text:
		w.input.SetText(completed, true)
	case len(candidates) == 0:
		w.hint("no file matches " + text[strings.LastIndexAny(text, " \t\n(")+1:])
	default:
		w.hint(strings.Join(candidates, "  "))
	}
	return true
}
