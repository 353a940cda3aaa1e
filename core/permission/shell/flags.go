package shell

import (
	"path"
	"strings"
)

// flagRule lists the options that disqualify one program of the read-only
// set: with any of them the program runs another program, writes a file
// or reads its configuration from somewhere the model may have written.
//
//   - exact: options that disqualify as a whole word, and long ones also
//     as --opt=value;
//   - prefixes: words starting with one of these disqualify (find
//     -fprint, -fprint0, -fprintf);
//   - short: option letters that disqualify anywhere in a cluster (rg's
//     -z inside -iz), unless a letter of shortArg before them takes the
//     rest of the cluster as its value (rg -ez searches for "z");
//   - abbrev: long options may be abbreviated to any unambiguous prefix
//     (git's parse-options), so a prefix of a disqualifying long option
//     disqualifies too (git log --outp=F is --output=F), except the real
//     options listed in abbrevOK;
//   - noDashDash: "--" does not end the options (find's expression has no
//     end-of-options marker: -exec after the paths is still an action).
//
// Otherwise "--" ends the options, and the words after it are operands,
// but only where it cannot be the value of an option: as the first
// argument or after a word that is not an option (`rg -e -- --pre x`
// gives -e the value "--", and --pre is then an option).
type flagRule struct {
	exact, prefixes []string
	short, shortArg string
	abbrev          bool
	abbrevOK        []string
	noDashDash      bool
}

// readOnlyFlags is the read-only set: each program and its disqualifying
// options. A program with an empty rule has no option that runs or
// writes anything (checked per program in readonly_test.go). git is
// checked by gitReadOnly on top of gitFlags.
var readOnlyFlags = map[string]flagRule{
	"cat": {}, "head": {}, "tail": {}, "pwd": {}, "echo": {}, "stat": {}, "which": {},
	// Options that follow symbolic links while recursing, or read a list of
	// file names from a file: the permission engine resolves the paths it
	// sees in the words, not links met below them or names inside a list, so
	// these could read outside the workspace unasked.
	//   grep -R / --dereference-recursive (plain -r follows only the named paths);
	//   ls -L / --dereference (with -R, every link below); du -L / --dereference;
	//   wc and du --files0-from=F (names to read, taken from F);
	//   diff -r / --recursive (GNU diff follows every link it meets below the
	//   named directories: red team r21 F1).
	// GNU getopt_long takes any unambiguous prefix of a long option
	// (grep --deref is --dereference-recursive, wc --files0=F is
	// --files0-from=F: red team r21 F1, F5), so their prefixes disqualify too.
	"ls":   {exact: []string{"--dereference"}, short: "L", shortArg: "ITw", abbrev: true},
	"grep": {exact: []string{"--dereference-recursive"}, short: "R", shortArg: "efmABCdD", abbrev: true},
	"du":   {exact: []string{"--dereference", "--files0-from"}, short: "L", shortArg: "BdtX", abbrev: true},
	"wc":   {exact: []string{"--files0-from"}, abbrev: true},
	"diff": {exact: []string{"--recursive"}, short: "r", shortArg: "xXIFSDLWCU", abbrev: true},
	"true": {}, "false": {}, ":": {}, "test": {}, "[": {}, "[[": {}, "((": {},
	// rg: --pre runs a preprocessor on every file (--pre-glob selects the
	// files for it), --hostname-bin runs a program to get the host name,
	// -z/--search-zip runs decompressors (gzip, xz, bzip2, ...) from PATH.
	// -L/--follow follows symbolic links (maybe out of the workspace).
	"rg": {exact: []string{"--pre", "--pre-glob", "--hostname-bin", "--search-zip", "--follow"}, short: "zL",
		shortArg: "ABCdEefgjMmrTt"},
	// find: actions that run commands, delete, or write files; -L and
	// -follow follow symbolic links below the starting points.
	"find": {exact: []string{"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fls", "-fprint", "-fprint0", "-fprintf",
		"-L", "-follow", "-files0-from"},
		prefixes: []string{"-fprint"}, noDashDash: true},
	"git": gitFlags,
}

// gitFlags are the options of git status/diff/log/show/branch that run or
// write something: --output writes a file; --ext-diff runs diff.external
// or a diff driver's command; --textconv runs a textconv filter;
// --show-signature runs gpg.program; --help runs man or a configured web
// browser (help.browser); the short and long forms git accepts by
// abbreviation count (--outp=F). A --format/--pretty with %G (signature
// placeholders, which run gpg) disqualifies too (gitReadOnly).
var gitFlags = flagRule{
	exact:    []string{"--output", "--ext-diff", "--textconv", "--show-signature", "--help"},
	abbrev:   true,
	abbrevOK: []string{"--text"}, // a real option (treat files as text), not --textconv
}

// gitGlobalOK are the only global options (before the subcommand) that
// keep git read-only; -C DIR is allowed too (the permission engine checks
// the directory, see ParseGit). Every other global option disqualifies,
// among them -c NAME=VALUE and --config-env (set any configuration, such
// as core.pager or core.fsmonitor), --exec-path (where git finds its
// subcommands), --git-dir and --work-tree (another repository and its
// configuration), --namespace, --super-prefix, --list-cmds, and -p /
// --paginate (runs the pager).
var gitGlobalOK = map[string]bool{
	"--no-pager": true, "-P": true, "--no-optional-locks": true, "--literal-pathspecs": true,
	"--glob-pathspecs": true, "--noglob-pathspecs": true, "--icase-pathspecs": true,
	"--no-replace-objects": true, "--no-advice": true, "--no-lazy-fetch": true,
}

// Disqualified returns the first option of args that makes program (a
// bare name of the read-only set) not read-only, by the tables above; ok
// is false when there is none. For programs outside the set it returns
// ("", false): they are not read-only anyway.
func Disqualified(program string, args []string) (flag string, ok bool) {
	rule, known := readOnlyFlags[program]
	if !known {
		return "", false
	}
	return rule.disqualified(args)
}

func (r flagRule) disqualified(args []string) (string, bool) {
	for i, a := range args {
		if a == "--" && !r.noDashDash && (i == 0 || !strings.HasPrefix(args[i-1], "-") || args[i-1] == "-") {
			return "", false
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		name, _, _ := strings.Cut(a, "=")
		for _, e := range r.exact {
			if a == e || strings.HasPrefix(e, "--") && name == e {
				return a, true
			}
			if r.abbrev && strings.HasPrefix(name, "--") && len(name) > 2 && strings.HasPrefix(e, name) && !contains(r.abbrevOK, name) {
				return a, true
			}
		}
		for _, p := range r.prefixes {
			if strings.HasPrefix(a, p) {
				return a, true
			}
		}
		if r.short != "" && a[1] != '-' {
			for j := 1; j < len(a); j++ {
				if strings.IndexByte(r.short, a[j]) >= 0 {
					return a, true
				}
				if strings.IndexByte(r.shortArg, a[j]) >= 0 {
					break
				}
			}
		}
	}
	return "", false
}

// GitCall is a git command line split at its subcommand.
type GitCall struct {
	// Globals are the global options before the subcommand, as written
	// (-C and its directory are in Dirs, not here).
	Globals []string
	// Dirs are the arguments of -C, in order: git runs in each in turn
	// (relative to the previous one), so the permission engine must check
	// that they stay inside the workspace.
	Dirs []string
	// Sub is the subcommand ("push", "status"); "" when there is none.
	Sub string
	// Rest are the subcommand's arguments.
	Rest []string
}

// gitGlobalArg are git's global options that take the next word as their
// value when it is not attached with "=".
var gitGlobalArg = map[string]bool{
	"-c": true, "--git-dir": true, "--work-tree": true, "--namespace": true, "--super-prefix": true,
	"--config-env": true, "--list-cmds": true, "--attr-source": true,
}

// ParseGit splits a git command (words[0] is git or a path ending in
// /git) at its subcommand, skipping the global options: -C DIR, -c
// NAME=VALUE, --git-dir[=]DIR, --work-tree[=]DIR, --namespace[=]NS,
// --config-env[=]..., --exec-path[=DIR], -p, -P, --paginate, --no-pager,
// --bare, and any other word starting with "-". ok is false when words is
// not a git command. This lets a rule such as `Bash(git push:*)` match
// `git -C . push`, `git -c a=b push`, `git --git-dir=x push` and
// `git --no-pager push`.
func ParseGit(words []string) (g GitCall, ok bool) {
	if len(words) == 0 || path.Base(words[0]) != "git" {
		return GitCall{}, false
	}
	args := words[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-C":
			if i+1 < len(args) {
				g.Dirs = append(g.Dirs, args[i+1])
			}
			i++
		case gitGlobalArg[a]:
			g.Globals = append(g.Globals, args[i:min(i+2, len(args))]...)
			i++
		case strings.HasPrefix(a, "-"):
			g.Globals = append(g.Globals, a)
		default:
			g.Sub, g.Rest = a, args[i+1:]
			return g, true
		}
	}
	return g, true
}

// GitSubcommand returns git's subcommand and its arguments after the
// global options (see ParseGit); sub is "" when words is not a git
// command or has no subcommand.
func GitSubcommand(words []string) (sub string, rest []string) {
	g, ok := ParseGit(words)
	if !ok {
		return "", nil
	}
	return g.Sub, g.Rest
}
