package shell

import (
	"path/filepath"
	"strings"
)

// ReadOnly reports whether c is in the built-in read-only set that needs
// no approval in any mode, like Claude Code's read-only command list, and
// like Codex's safe-command list only for commands whose every word is a
// literal (c.Literal: no expansion of any kind, and no word bash evaluates
// as code, see markEvaluated):
//
//   - ls cat head tail wc grep pwd echo stat du which diff, with any
//     arguments (none of their options runs or writes anything);
//   - rg without --pre, --pre-glob, --hostname-bin, -z/--search-zip (also
//     inside a short-option cluster such as -iz);
//   - find without -exec -execdir -ok -okdir -delete -fls -fprint
//     -fprint0 -fprintf (anywhere: find has no end of options);
//   - git status|diff|log|show|branch, optionally after the global
//     options in gitGlobalOK or -C DIR, without --output, --ext-diff,
//     --textconv, --show-signature, --help (or a prefix git would take for
//     one of them) and without a %G format placeholder; branch only to
//     list (no -d -D -m -M -c -C --delete --move --copy --set-upstream*
//     --unset-upstream --edit-description -f, and no positional argument
//     unless --list/-l makes it a pattern);
//   - command -v/-V NAME (a lookup);
//   - extensions: the shell's own evaluations `[[ ... ]]`, `(( ... ))`,
//     test, [, true, false and : (the arithmetic ones only with numbers,
//     see markEvaluated); and a statement of only literal assignments to
//     harmless names (see below), e.g. `x=1`.
//
// The options that disqualify each program are the tables readOnlyFlags
// and gitFlags (Disqualified). The command name must be written as the
// bare name (./ls or /tmp/ls may be anything). A command with a write
// redirect is not read-only, except to the targets HarmlessTarget accepts;
// neither is one with an assignment to a name that is not harmless (see
// harmlessAssign: PATH=, LD_PRELOAD=, PAGER= ... change what runs), nor
// one with any redirection, read or write, to bash's network paths
// (NetworkTarget: `cat < /dev/tcp/host/80` opens a connection).
// Wrappers (timeout, nice, ...) are fine.
//
// git's configuration can still make these subcommands run helpers
// (core.fsmonitor, core.pager, diff.external, textconv, gpg.program, ...);
// that is for the runtime to disable (the sandbox's git environment), and
// the repository's own .git/config is a protected path the model cannot
// write. Likewise RIPGREP_CONFIG_PATH is read from the environment only.
func ReadOnly(c Command) bool {
	if !c.Literal {
		return false
	}
	for _, r := range c.Redirects {
		if r.Write && !(r.Literal && HarmlessTarget(r.Target)) || NetworkTarget(r.Target) {
			return false
		}
	}
	for _, a := range c.Assigns {
		if !harmlessAssign(assignName(a)) {
			return false
		}
	}
	if len(c.Words) == 0 {
		return true
	}
	name, args := c.Words[0], c.Words[1:]
	if name == "command" {
		return len(args) > 0 && (args[0] == "-v" || args[0] == "-V")
	}
	rule, ok := readOnlyFlags[name]
	if !ok {
		return false
	}
	if _, bad := rule.disqualified(args); bad {
		return false
	}
	if name == "git" {
		return gitReadOnly(args)
	}
	return true
}

// gitReadOnly checks git's global options, subcommand and arguments
// (gitFlags is checked by the caller).
func gitReadOnly(args []string) bool {
	g, _ := ParseGit(append([]string{"git"}, args...))
	for _, o := range g.Globals {
		if !gitGlobalOK[o] {
			return false
		}
	}
	for _, a := range g.Rest {
		if strings.Contains(a, "%G") {
			return false // signature placeholders run gpg
		}
	}
	switch g.Sub {
	case "status", "diff", "log", "show":
		return true
	case "branch":
		return gitBranchListing(g.Rest)
	}
	return false
}

// gitBranchListing reports whether `git branch ARGS` only lists branches.
func gitBranchListing(args []string) bool {
	listing, positional := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, hasValue := strings.Cut(a, "=")
		switch {
		case a == "--":
			positional = positional || i+1 < len(args)
			i = len(args)
		case a == "--list":
			listing = true
		case isCluster(a, "avrlqi"):
			listing = listing || strings.Contains(a, "l")
		case a == "--all" || a == "--remotes" || a == "--verbose" || a == "--show-current" ||
			a == "--ignore-case" || a == "--no-color" || a == "--no-column" || a == "--no-abbrev" ||
			a == "--quiet" || name == "--color" || name == "--column" || name == "--abbrev":
		case name == "--contains" || name == "--no-contains" || name == "--merged" || name == "--no-merged":
			// optional commit argument
			if !hasValue && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
			}
		case name == "--points-at" || name == "--sort" || name == "--format":
			if !hasValue {
				i++
			}
		case strings.HasPrefix(a, "-"):
			return false // -d -D -m -M -c -C -f -u --delete --move --copy --set-upstream* ...
		default:
			positional = true
		}
	}
	return !positional || listing
}

// isCluster reports whether a is a short-option cluster of letters in set.
func isCluster(a, set string) bool {
	if len(a) < 2 || a[0] != '-' {
		return false
	}
	for i := 1; i < len(a); i++ {
		if strings.IndexByte(set, a[i]) < 0 {
			return false
		}
	}
	return true
}

// NetworkTarget reports whether a redirection target is one of the paths
// bash itself turns into a network connection: /dev/tcp/HOST/PORT and
// /dev/udp/HOST/PORT (after filepath.Clean).
func NetworkTarget(p string) bool {
	if !filepath.IsAbs(p) {
		return false
	}
	c := filepath.Clean(p)
	return strings.HasPrefix(c, "/dev/tcp/") || strings.HasPrefix(c, "/dev/udp/")
}
