package permission

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// Read deny rules and commands that read more than they name.
//
// A read-only command is checked against Read deny rules through its path
// arguments (restrictive). Some read-only commands read files they do not name:
// a recursive grep (-r, -R, --recursive, -d recurse, rgrep), ripgrep (it
// recurses whenever it is given a directory or no path), and git commands that
// print file contents from the object store (git show HEAD:.env, git log -p,
// git diff, git grep, git cat-file, ...). When the rules hold a Read deny rule,
// such a command is no longer free: it asks (denied in dontAsk; plan mode asks,
// as for a read outside the workspace), naming the rule, unless a Bash allow
// rule allows it. Commands that list names only (find, ls -R) stay free: Read
// rules guard contents, as Claude Code's do. bypassPermissions is left as it is.
//
// Best effort, as Claude Code's application of Read rules to every tool that
// reads: a program that reads files on its own (a script, a build) is not
// looked at here.

// readDenyRule returns the first deny rule that applies to reads (Tool "Read").
func readDenyRule(deny []Rule) (Rule, bool) {
	for _, r := range deny {
		if r.Tool == "Read" {
			return r, true
		}
	}
	return Rule{}, false
}

// readsPastDeny is the ask for the first read-only part that may read files it
// does not name, when a Read deny rule exists; false when there is none.
func readsPastDeny(mode Mode, rules RuleSet, parts []bashPart, in Input) (Decision, bool) {
	if mode == ModeBypass {
		return Decision{}, false
	}
	r, ok := readDenyRule(rules.Deny)
	if !ok {
		return Decision{}, false
	}
	for _, p := range parts {
		if !p.readOnly {
			continue // not free anyway: it asks, or a mode's default decides as for any program
		}
		if a, ok := firstCommandRule(rules.Allow, p.full); ok && !a.Project && (a.Specifier == "" || p.cmd.Literal) {
			continue // the user allowed this command (a project's rule does not lift the user's deny)
		}
		isFile := func(word string) bool {
			for _, t := range p.readArgs {
				if t.word == word && len(t.paths) > 0 {
					for _, q := range t.paths {
						if fi, err := os.Stat(in.resolvePath(q)); err != nil || !fi.Mode().IsRegular() {
							return false
						}
					}
					return true
				}
			}
			return false
		}
		for _, l := range p.lists {
			if readsUnnamed(l, isFile) {
				what := "files"
				if r.Specifier != "" {
					what = r.Specifier
				}
				return askFor(mode, ruleDecision(Ask, r, fmt.Sprintf(
					"`%s` may read %s, which the rule %s denies", shorten(p.full), what, r))), true
			}
		}
	}
	return Decision{}, false
}

// readsUnnamed reports whether the command words may read file contents that
// no argument names; isFile says whether an argument word names regular files
// only.
func readsUnnamed(words []string, isFile func(string) bool) bool {
	if len(words) == 0 {
		return false
	}
	switch programName(words[0]) {
	case "grep", "egrep", "fgrep", "zgrep", "zegrep", "zfgrep":
		return grepRecursive(words[1:])
	case "rgrep":
		return true
	case "rg":
		return rgRecursive(words[1:], isFile)
	case "git":
		return gitReadsObjects(words[1:])
	}
	return false
}

// grepValueShort are grep's short options that take a value.
const grepValueShort = "efmABCdD"

// grepRecursive reports whether grep's arguments make it recurse.
func grepRecursive(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return false
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			switch {
			case len(name) >= 3 && (strings.HasPrefix("recursive", name) || strings.HasPrefix("dereference-recursive", name)):
				return true
			case len(name) >= 3 && strings.HasPrefix("directories", name):
				if !hasVal && i+1 < len(args) {
					val = args[i+1]
				}
				if val == "recurse" || val == "" {
					return true
				}
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				c := a[j]
				if c == 'r' || c == 'R' {
					return true
				}
				if strings.IndexByte(grepValueShort, c) >= 0 {
					val := a[j+1:]
					if val == "" && i+1 < len(args) {
						i++
						val = args[i]
					}
					if c == 'd' && (val == "recurse" || val == "") {
						return true
					}
					break
				}
			}
		}
	}
	return false
}

// rgRecursive reports whether ripgrep may read files its arguments do not name:
// always, except the plain `rg PATTERN FILE...` (no options) whose paths are
// all existing regular files.
func rgRecursive(args []string, isFile func(string) bool) bool {
	var pos []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			return true // options may take values, name patterns, or add -u/--hidden/--follow
		}
		pos = append(pos, a)
	}
	if len(pos) < 2 {
		return true // no path: the current directory
	}
	for _, p := range pos[1:] {
		if !isFile(p) {
			return true
		}
	}
	return false
}

// gitContentCommands are git subcommands that may print the contents of files
// from the object store (or, git grep, the work tree) that no argument names.
var gitContentCommands = []string{
	"show", "log", "diff", "grep", "whatchanged", "cat-file", "blame", "annotate",
	"reflog", "stash", "diff-tree", "diff-index", "diff-files", "range-diff",
	"format-patch", "archive", "cherry", "show-branch", "bundle", "fast-export",
}

// gitValueGlobals are git's global options that take the next word as value.
var gitValueGlobals = []string{"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env", "--super-prefix"}

// gitReadsObjects reports whether the git command (its arguments) is one of
// gitContentCommands.
func gitReadsObjects(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if slices.Contains(gitValueGlobals, a) {
			i++
			continue
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		return slices.Contains(gitContentCommands, a)
	}
	return false
}

// withResolved returns paths followed by their symlink-resolved forms that
// differ, so that a deny or ask rule on a file also matches a link to it
// (`cat env.txt` where env.txt -> .env and Read(./.env) denies).
func withResolved(paths []string, in Input) []string {
	out := paths
	for _, p := range paths {
		if r := in.resolvePath(p); r != "" && r != p && !slices.Contains(out, r) {
			if len(out) == len(paths) {
				out = slices.Clone(paths)
			}
			out = append(out, r)
		}
	}
	return out
}
