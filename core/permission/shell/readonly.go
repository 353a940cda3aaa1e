package shell

import "strings"

// ReadOnly reports whether c is in the built-in read-only set that needs
// no approval in any mode, like Claude Code's read-only command list:
//
//   - ls cat head tail wc grep pwd echo stat du which diff, with any arguments;
//   - rg without --pre (which runs a preprocessor command);
//   - find without -exec -execdir -ok -okdir -delete -fprint -fprint0
//     -fprintf -fls;
//   - git status|diff|log|show|branch, optionally after the global options
//     --no-pager, --no-optional-locks or -C DIR: diff/log/show without
//     --output, branch only to list (no -d -D -m -M -c -C --delete --move
//     --copy --set-upstream* --unset-upstream --edit-description -f, and
//     no positional argument unless --list/-l makes it a pattern);
//   - command -v/-V NAME (a lookup);
//   - extensions: the shell's own side-effect-free evaluations `[[ ... ]]`,
//     `(( ... ))`, test, [, true, false and : ; and a statement of only
//     literal assignments to harmless names (see below), e.g. `x=1`.
//
// The command name must be written as the bare name (./ls or /tmp/ls may
// be anything). A command with a write redirect is not read-only, except
// to /dev/null, /dev/stdout, /dev/stderr and /dev/fd/*; neither is one
// with an assignment to a name that is not harmless (see harmlessAssign:
// PATH=, LD_PRELOAD=, PAGER= ... change what runs). Non-literal commands
// are never read-only. Wrappers (timeout, nice, ...) are fine.
func ReadOnly(c Command) bool {
	if !c.Literal {
		return false
	}
	for _, r := range c.Redirects {
		if r.Write && !(r.Literal && harmlessTarget(r.Target)) {
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
	args := c.Words[1:]
	switch c.Words[0] {
	case "ls", "cat", "head", "tail", "wc", "grep", "pwd", "echo", "stat", "du", "which", "diff",
		"[[", "((", "test", "[", "true", "false", ":":
		return true
	case "rg":
		return !hasOption(args, "--pre")
	case "find":
		return findReadOnly(args)
	case "git":
		return gitReadOnly(args)
	case "command":
		return len(args) > 0 && (args[0] == "-v" || args[0] == "-V")
	}
	return false
}

// hasOption reports whether args has the long option name, alone or as
// name=value.
func hasOption(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == name || strings.HasPrefix(a, name+"=") {
			return true
		}
	}
	return false
}

func findReadOnly(args []string) bool {
	for _, a := range args {
		switch a {
		case "-exec", "-execdir", "-ok", "-okdir", "-delete", "-fls":
			return false
		}
		if strings.HasPrefix(a, "-fprint") {
			return false
		}
	}
	return true
}

func gitReadOnly(args []string) bool {
	i := 0
	for i < len(args) {
		switch args[i] {
		case "--no-pager", "--no-optional-locks":
			i++
			continue
		case "-C":
			i += 2
			continue
		}
		break
	}
	if i >= len(args) {
		return false
	}
	sub, rest := args[i], args[i+1:]
	switch sub {
	case "status":
		return true
	case "diff", "log", "show":
		return !hasOption(rest, "--output")
	case "branch":
		return gitBranchListing(rest)
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
