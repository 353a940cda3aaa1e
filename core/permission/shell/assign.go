package shell

import "strings"

// Assignments before a command (FOO=1 make, env FOO=1 make) and bare
// assignments (FOO=1) can change what later runs: PATH, LD_PRELOAD,
// BASH_ENV, GIT_PAGER, GOFLAGS=-toolexec=... As in Claude Code, only a
// short list of names is harmless; any other is a risk, so that a rule
// written for `make` does not also allow `LD_PRELOAD=x.so make`.

// safeEnvNames are environment variables that only tune output, locale or
// a build's target, and cannot make a command run something else.
var safeEnvNames = map[string]bool{
	"LANG": true, "LANGUAGE": true, "TZ": true, "TERM": true, "COLORTERM": true, "COLUMNS": true,
	"LINES": true, "NO_COLOR": true, "FORCE_COLOR": true, "CLICOLOR": true, "CLICOLOR_FORCE": true,
	"GREP_COLOR": true, "GREP_COLORS": true, "TIME_STYLE": true, "CI": true,
	"GOOS": true, "GOARCH": true, "CGO_ENABLED": true, "NODE_ENV": true,
	"RUST_BACKTRACE": true, "RUST_LOG": true, "PYTHONUNBUFFERED": true, "PYTHONDONTWRITEBYTECODE": true,
}

// harmlessAssign reports whether assigning name cannot change what a
// command runs: a safe environment name, LC_*, or a lowercase name (a
// shell-local variable by convention; no loader, shell or tool reads one
// to decide what to execute).
func harmlessAssign(name string) bool {
	if safeEnvNames[name] || strings.HasPrefix(name, "LC_") && isUpperName(name) {
		return true
	}
	return isLowerName(name)
}

// assignName returns NAME of "NAME=value" or "NAME+=value".
func assignName(a string) string {
	name, _, _ := strings.Cut(a, "=")
	return strings.TrimSuffix(name, "+")
}

func isLowerName(s string) bool {
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

func isUpperName(s string) bool {
	for i, c := range s {
		if !(c == '_' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}
