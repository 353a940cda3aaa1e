package sandbox

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Git's state files (red team r17 F1, F3): besides config, hooks and info,
// a git dir holds files the person's git later writes or runs. A symlink
// among them (COMMIT_EDITMSG, logs/HEAD, MERGE_MSG, a refs directory)
// makes the person's next git command write where it points, outside the
// sandbox; git itself never creates a symlink in a git dir (refs are files,
// core.preferSymlinkRefs aside, which is off by default and long
// deprecated). A rebase's todo list (rebase-merge/git-rebase-todo, the
// sequencer's todo of cherry-pick and revert) runs its `exec` lines on the
// person's `git rebase --continue` / `cherry-pick --continue`. The guard
// records both before a command (gitState) and quarantines a symlink the
// command made or re-pointed, and a todo in which the command wrote an exec
// line that was not there before (gitStateChanges).

// todoFiles are the todo lists, relative to their git dir's subdirectory,
// whose exec lines git runs on --continue (sequencer.c: the interactive
// rebase's and the sequencer's; rebase-apply, am's, has no commands).
var todoFiles = []string{"rebase-merge/git-rebase-todo", "sequencer/todo"}

// gitState is what the git dirs of a root held that the person's git
// follows or runs: each symlink (its target), each todo's exec lines, and
// each nested `.git` file or symlink (what it names).
type gitState struct {
	links   map[string]string
	execs   map[string][]string
	dotGits map[string]string
}

// scanGitState records the gitState of root's .git directory and of dirs
// (the other git dirs in root, walkGitDirs), and of dotGits. The walk
// follows no symlink and does not descend into the objects fan-out
// (objects/xx, lfs/objects/xx/yy), which git only writes by hash.
func scanGitState(root string, dirs, dotGits []string) gitState {
	st := gitState{links: map[string]string{}, execs: map[string][]string{}, dotGits: map[string]string{}}
	top := filepath.Join(root, ".git")
	for _, g := range append([]string{top}, dirs...) {
		if g != top && within(top, g) {
			continue // walked with root's .git
		}
		if fi, err := os.Lstat(g); err != nil || !fi.IsDir() {
			continue
		}
		_ = filepath.WalkDir(g, func(p string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return nil
			case d.Type()&fs.ModeSymlink != 0:
				st.links[p], _ = os.Readlink(p)
			case d.IsDir() && p != g && isFanOut(d.Name()):
				return fs.SkipDir
			case d.Type().IsRegular() && isTodo(p):
				st.execs[p] = todoExecLines(p)
			}
			return nil
		})
	}
	for _, p := range dotGits {
		if p != top {
			st.dotGits[p] = dotGitTarget(p)
		}
	}
	return st
}

// isFanOut reports whether name is a two-hex-digit directory of an object
// store's fan-out.
func isFanOut(name string) bool {
	return len(name) == 2 && strings.Trim(name, "0123456789abcdef") == ""
}

// isTodo reports whether p ends in one of todoFiles.
func isTodo(p string) bool {
	s := filepath.ToSlash(p)
	return slices.ContainsFunc(todoFiles, func(t string) bool { return strings.HasSuffix(s, "/"+t) })
}

// todoExecLines returns the exec lines of the todo list at p, trimmed: a
// line whose first word is "x" or "exec" in any case (git takes the exact
// lower-case words after blanks; a wider net errs on the protected side). A
// file that cannot be read whole (over 1 MiB) counts as one exec line of its
// own, which never matches an earlier one.
func todoExecLines(p string) []string {
	b, err := os.ReadFile(p)
	if err != nil || len(b) > 1<<20 {
		return []string{"\x00unreadable todo"}
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) > 0 && (strings.EqualFold(f[0], "x") || strings.EqualFold(f[0], "exec")) {
			out = append(out, strings.Join(f, " "))
		}
	}
	return out
}

// dotGitTarget returns what the `.git` file ("gitdir: PATH") or symlink at
// p names, as an absolute, clean path, symlinks of it resolved when it
// exists; "" when it is neither or names nothing.
func dotGitTarget(p string) string {
	fi, err := os.Lstat(p)
	if err != nil {
		return ""
	}
	var named string
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		named, _ = os.Readlink(p)
	case fi.Mode().IsRegular() && fi.Size() <= 4096:
		b, _ := os.ReadFile(p)
		named, _ = strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
		named = strings.TrimSpace(named)
	}
	if named == "" {
		return ""
	}
	if !filepath.IsAbs(named) {
		named = filepath.Join(filepath.Dir(p), named)
	}
	named = filepath.Clean(named)
	if real, err := filepath.EvalSymlinks(named); err == nil {
		return real
	}
	return named
}

// gitStateChanges compares root's state after a command with before and
// returns the paths to quarantine: a symlink in a git dir that is new or
// points elsewhere than before; a todo list holding an exec line it did not
// hold before (a rebase the person started with exec lines of their own
// keeps them, also as the command's `git rebase --continue` works through
// them); a `.git` file or symlink that is new or names another place than
// before and names a place outside roots (or nothing git could read).
func gitStateChanges(before, after gitState, roots []string) []string {
	var out []string
	for p, target := range after.links {
		if old, had := before.links[p]; !had || old != target {
			out = append(out, p)
		}
	}
	for p, lines := range after.execs {
		if slices.ContainsFunc(lines, func(l string) bool { return !slices.Contains(before.execs[p], l) }) {
			out = append(out, p)
		}
	}
	for p, target := range after.dotGits {
		if old, had := before.dotGits[p]; had && old == target {
			continue
		}
		if !slices.ContainsFunc(roots, func(r string) bool { return target != "" && within(r, target) }) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	// A symlinked directory moved away takes what lies beneath it along.
	return slices.DeleteFunc(out, func(p string) bool {
		return slices.ContainsFunc(out, func(q string) bool { return q != p && within(q, p) })
	})
}
