package permission

import (
	"path/filepath"
	"slices"
	"strings"

	"pincer/core/permission/shell"
)

// The parts of a Bash command line that the rules look at: each simple command
// (shell.Analyze flattens nested ones), with the texts rules match, the files its
// redirects write, the file arguments of mkdir/touch/mv/cp/rm/rmdir (edits), and
// the arguments of read-only commands (reads).
//
// Environment assignments (`FOO=1 npm test`): deny and ask rules match the
// command with and without them, so `Bash(rm:*)` denies `FOO=1 rm x`; allow
// rules must match the command including them, so `Bash(npm test)` does not allow
// `NODE_OPTIONS=--require=x npm test` — an assignment can change what a program
// does (LD_PRELOAD, GIT_SSH_COMMAND, NODE_OPTIONS, ...). Claude Code strips a
// short list of "safe" variables before allow matching; pincer strips none, and
// "always allow" saves the command with its assignments. The wrappers the shell
// analysis looks through (timeout, nice, nohup, time, stdbuf, command, env) are
// not part of the matched text.

// partStatus is how a part (a command or one of its write targets) is allowed.
type partStatus int

const (
	pending     partStatus = iota // needs approval
	byReadOnly                    // in the built-in read-only set (or runs nothing)
	byAllowRule                   // an allow rule matches
	byModeOK                      // the mode allows it (acceptEdits file ops and writes)
)

// target is a file a part writes or reads: the word as written and the absolute
// paths it may stand for (one per possible working directory; none when unknown).
type target struct {
	word  string
	paths []string
}

// bashPart is one simple command and what the rules say about it.
type bashPart struct {
	cmd      shell.Command
	full     string   // assignments, then the command text: what allow rules match
	forms    []string // every text deny and ask rules match
	readOnly bool     // shell.ReadOnly, write redirects aside (they are checked as edits)
	fileOp   bool     // mkdir, touch, mv, cp, rm or rmdir with simple options
	writes   []target // redirect targets (edits)
	fileArgs []target // file arguments of a file op (edits)
	readArgs []target // arguments of a read-only command (reads)

	status      partStatus
	rule        Rule // the allow rule, when status is byAllowRule
	writeStatus []partStatus
	writeRules  []Rule
}

// fileOps are the commands acceptEdits allows on workspace paths.
var fileOps = map[string]bool{"mkdir": true, "touch": true, "mv": true, "cp": true, "rm": true, "rmdir": true}

// cwdTracker follows `cd` through a command line. Since subshells and control
// flow make the directory uncertain, it keeps every directory seen: a relative
// path stands for one path per directory, and a `cd` it cannot follow makes
// relative paths unknown.
type cwdTracker struct {
	dirs      []string
	home      string
	workspace string
	unknown   bool
}

// resolve returns the absolute paths word may stand for; nil when unknown.
func (t *cwdTracker) resolve(word string, literal bool) []string {
	if rest, ok := strings.CutPrefix(word, "~/"); ok && t.home != "" && plainWord(rest) {
		return []string{filepath.Join(t.home, rest)}
	}
	if !literal || word == "" {
		return nil
	}
	if filepath.IsAbs(word) {
		return []string{filepath.Clean(word)}
	}
	if t.unknown {
		return nil
	}
	out := make([]string, 0, len(t.dirs))
	for _, d := range t.dirs {
		if p := filepath.Join(d, word); !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// follow updates the tracker after command c ran.
func (t *cwdTracker) follow(c shell.Command) {
	if len(c.Words) == 0 {
		return
	}
	switch c.Words[0] {
	case "cd", "pushd":
		if len(c.Words) == 2 && !strings.HasPrefix(c.Words[1], "-") {
			if ps := t.resolve(c.Words[1], wordLiteral(c, c.Words[1])); ps != nil {
				for _, p := range ps {
					if !slices.Contains(t.dirs, p) {
						t.dirs = append(t.dirs, p)
					}
				}
				return
			}
		}
		t.unknown = true
	case "popd":
		t.unknown = true
	}
}

// cdInside reports whether c is `cd DIR` into the workspace: it changes nothing
// but the directory later relative paths resolve against, which the tracker
// follows (Claude Code allows cd within the project the same way).
func cdInside(c shell.Command, cwd *cwdTracker) bool {
	if len(c.Words) != 2 || c.Words[0] != "cd" || len(c.Redirects) > 0 || len(c.Assigns) > 0 ||
		strings.HasPrefix(c.Words[1], "-") {
		return false
	}
	dirs := cwd.resolve(c.Words[1], wordLiteral(c, c.Words[1]))
	return len(dirs) > 0 && allInside(dirs, cwd.workspace)
}

// harmlessWrite reports whether writing to target changes no file: /dev/null,
// the standard streams and open descriptors.
func harmlessWrite(target string) bool {
	switch target {
	case "/dev/null", "/dev/stdout", "/dev/stderr":
		return true
	}
	return strings.HasPrefix(target, "/dev/fd/")
}

// plainWord reports whether w has nothing the shell would expand.
func plainWord(w string) bool { return !strings.ContainsAny(w, "$`*?[{~") }

// wordLiteral reports whether word w of c is literal: every word is when the
// command is; otherwise only words with nothing to expand.
func wordLiteral(c shell.Command, w string) bool {
	return c.Literal || plainWord(w)
}

// commandText is the text rules match for c: its words, each quoted as a user
// would type it when the command is literal; the analysis' text otherwise.
func commandText(c shell.Command) string {
	if !c.Literal {
		if c.Text != "" {
			return c.Text
		}
		return strings.Join(c.Words, " ")
	}
	q := make([]string, len(c.Words))
	for i, w := range c.Words {
		q[i] = quoteWord(w)
	}
	return strings.Join(q, " ")
}

// buildParts turns an analysis into parts, following cd from in.Cwd.
func buildParts(a shell.Analysis, in Input) []bashPart {
	cwd := &cwdTracker{dirs: []string{in.Cwd}, home: in.Home, workspace: in.Workspace}
	if in.Cwd == "" {
		cwd.unknown = true
	}
	parts := make([]bashPart, 0, len(a.Commands))
	for _, c := range a.Commands {
		parts = append(parts, newPart(c, cwd))
		cwd.follow(c)
	}
	return parts
}

// newPart describes one simple command.
func newPart(c shell.Command, cwd *cwdTracker) bashPart {
	text := commandText(c)
	p := bashPart{cmd: c, full: joinNonEmpty(strings.Join(c.Assigns, " "), text)}
	for _, f := range []string{text, p.full, c.Text, joinNonEmpty(strings.Join(c.Assigns, " "), c.Text)} {
		if f != "" && !slices.Contains(p.forms, f) {
			p.forms = append(p.forms, f)
		}
	}
	noWrites := c
	noWrites.Redirects = nil
	for _, r := range c.Redirects {
		switch {
		case r.Write && !(r.Literal && harmlessWrite(r.Target)):
			p.writes = append(p.writes, target{word: r.Target, paths: cwd.resolve(r.Target, r.Literal)})
		case !r.Write:
			noWrites.Redirects = append(noWrites.Redirects, r)
		}
	}
	p.readOnly = shell.ReadOnly(noWrites) || cdInside(c, cwd)
	if len(c.Words) == 0 {
		return p
	}
	args, simple := fileArguments(c.Words[1:])
	targets := make([]target, 0, len(args))
	for _, w := range args {
		targets = append(targets, target{word: w, paths: cwd.resolve(w, wordLiteral(c, w))})
	}
	switch {
	case fileOps[c.Words[0]]:
		p.fileOp = simple && len(args) > 0
		p.fileArgs = targets
	case p.readOnly:
		p.readArgs = targets
	}
	return p
}

// fileArguments returns the words of args that may name files: operands, and the
// values of --option=value. simple is false when an option is more than letters,
// digits and dashes (it might carry a path the caller cannot see, like -t/dir).
func fileArguments(args []string) (files []string, simple bool) {
	simple = true
	for i, w := range args {
		switch {
		case w == "--":
			return append(files, args[i+1:]...), simple
		case strings.HasPrefix(w, "-") && len(w) > 1:
			if _, val, ok := strings.Cut(w, "="); ok {
				files = append(files, val)
			}
			if strings.TrimLeft(w, "-abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != "" {
				simple = false
			}
		default:
			files = append(files, w)
		}
	}
	return files, simple
}

func joinNonEmpty(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " " + b
}
