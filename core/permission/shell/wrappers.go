package shell

import (
	"path"
	"strings"
)

// A wrapper runs another command given as its trailing arguments. Each
// parser gets the words after the wrapper's name and returns where the
// wrapped command starts, or ok=false when the options are not understood
// (then the wrapper is not looked through and stays the command). Every
// word a parser inspects must be literal: `timeout $T ls` could expand to
// anything.
type wrapperParser func(args []word) (start int, ok bool)

// wrappers are the commands looked through when building Commands, as in
// Claude Code, which matches rules against the wrapped command: timeout
// nice nohup time stdbuf command builtin env.
var wrappers = map[string]wrapperParser{
	"timeout": parseTimeout,
	"nice":    parseNice,
	"nohup":   parseNohup,
	"time":    parseTime,
	"stdbuf":  parseStdbuf,
	"command": parseCommand,
	"builtin": parseBuiltin,
	"env":     parseEnv,
}

// privileged are the commands that run their arguments as another user.
// They are not looked through for Commands (a rule must allow `sudo ...`
// explicitly) but are for HardDeny and for finding nested commands
// (`sudo sh -c '...'`).
var privileged = map[string]wrapperParser{
	"sudo":   parseSudo,
	"doas":   parseDoas,
	"pkexec": parsePkexec,
	"exec":   parseExec,
}

// stdDirs are the directories from which a wrapper may be named by path.
var stdDirs = map[string]bool{"/bin": true, "/usr/bin": true, "/usr/local/bin": true, "/sbin": true, "/usr/sbin": true}

// wrapperName returns the wrapper name of w ("" if none): its value when
// it is a bare name, or its base name when it is an absolute path in a
// standard bin directory (./timeout may be any script).
func wrapperName(w word) string {
	if !w.lit {
		return ""
	}
	if !strings.Contains(w.val, "/") {
		return w.val
	}
	if stdDirs[path.Dir(w.val)] {
		return path.Base(w.val)
	}
	return ""
}

// unwrapped is the result of looking through wrappers.
type unwrapped struct {
	wrappers []string // names looked through, outermost first
	assigns  []string // VAR=value words of env
	words    []word   // the wrapped command
}

// unwrap looks through the wrappers in table at the start of ws, repeatedly.
func unwrap(ws []word, table map[string]wrapperParser) unwrapped {
	var u unwrapped
	for len(ws) > 0 {
		name := wrapperName(ws[0])
		parse, found := table[name]
		if !found {
			break
		}
		start, ok := parse(ws[1:])
		if !ok || 1+start >= len(ws) {
			break
		}
		if name == "env" {
			for _, a := range ws[1 : 1+start] {
				if isAssignWord(a.val) {
					u.assigns = append(u.assigns, a.src)
				}
			}
		}
		u.wrappers = append(u.wrappers, name)
		ws = ws[1+start:]
	}
	u.words = ws
	return u
}

// unwrapAll looks through every wrapper Forms knows, in any order and
// repeatedly (`sudo nice rm`, `nice sudo rm`, `env -C / rm`,
// `env -S 'rm x'`, `setsid bash -c ...`), except xargs, whose command
// Analyze reports as a nested Command of its own.
func unwrapAll(ws []word) []word {
	for len(ws) > 0 {
		name := wrapperName(ws[0])
		if name == "" && ws[0].lit {
			name = path.Base(ws[0].val)
		}
		if name == "env" {
			if split := envSplit(ws[1:]); split != nil {
				ws = split
				continue
			}
		}
		parse, found := formWrappers[name]
		if !found || name == "xargs" {
			return ws
		}
		start, ok := parse(ws[1:])
		if !ok || 1+start >= len(ws) {
			return ws
		}
		ws = ws[1+start:]
	}
	return ws
}

// isAssignWord reports whether s has the form NAME=value.
func isAssignWord(s string) bool {
	i := strings.IndexByte(s, '=')
	if i <= 0 {
		return false
	}
	for j, c := range s[:i] {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || j > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// optSpec describes a wrapper's options: flags without argument, options
// taking an argument (attached or as the next word), options whose
// argument is optional and attached only (xargs -i[R]), long forms of
// flags and of options with an argument, and whether a lone number
// (nice -10) is an option.
type optSpec struct {
	flags, withArg, optional string
	longFlags, longArg       []string
	numeric                  bool
}

// skipOptions returns the index of the first non-option word of args.
func (o optSpec) skipOptions(args []word) (int, bool) {
	i := 0
	for i < len(args) {
		a := args[i]
		if !a.lit {
			return 0, false
		}
		v := a.val
		switch {
		case v == "--":
			return i + 1, true
		case strings.HasPrefix(v, "--"):
			name, _, hasValue := strings.Cut(v, "=")
			if contains(o.longFlags, name) {
				i++
			} else if contains(o.longArg, name) {
				i++
				if !hasValue {
					i++
				}
			} else {
				return 0, false
			}
		case len(v) > 1 && v[0] == '-':
			if o.numeric && isNumber(v[1:]) {
				i++
				continue
			}
			n, ok := o.cluster(v[1:])
			if !ok {
				return 0, false
			}
			i += 1 + n
		default:
			return i, true
		}
	}
	return i, i <= len(args)
}

// cluster parses a short-option cluster such as "vs9" and says how many
// following words it consumes.
func (o optSpec) cluster(c string) (int, bool) {
	for j := 0; j < len(c); j++ {
		switch {
		case strings.IndexByte(o.flags, c[j]) >= 0:
		case strings.IndexByte(o.optional, c[j]) >= 0:
			return 0, true
		case strings.IndexByte(o.withArg, c[j]) >= 0:
			if j == len(c)-1 {
				return 1, true
			}
			return 0, true
		default:
			return 0, false
		}
	}
	return 0, true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func isNumber(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// parseTimeout: timeout [-v] [-s SIG] [-k DUR] [--preserve-status] [--foreground] DURATION CMD...
func parseTimeout(args []word) (int, bool) {
	i, ok := optSpec{flags: "v", withArg: "sk",
		longFlags: []string{"--verbose", "--preserve-status", "--foreground"},
		longArg:   []string{"--signal", "--kill-after"}}.skipOptions(args)
	if !ok || i >= len(args) || !args[i].lit {
		return 0, false
	}
	return i + 1, true // skip DURATION
}

// parseNice: nice [-n N | -N | --adjustment=N] CMD...
func parseNice(args []word) (int, bool) {
	return optSpec{withArg: "n", longArg: []string{"--adjustment"}, numeric: true}.skipOptions(args)
}

// parseNohup: nohup [--] CMD...
func parseNohup(args []word) (int, bool) { return optSpec{}.skipOptions(args) }

// parseTime: time [-p] CMD... (the keyword form is a TimeClause; this is
// /usr/bin/time or time after another wrapper). -o/-a write a file and -f
// is rarely needed: they stop the look-through.
func parseTime(args []word) (int, bool) {
	return optSpec{flags: "pvq", longFlags: []string{"--portability", "--verbose", "--quiet"}}.skipOptions(args)
}

// parseStdbuf: stdbuf [-i MODE] [-o MODE] [-e MODE] CMD...
func parseStdbuf(args []word) (int, bool) {
	return optSpec{withArg: "ioe", longArg: []string{"--input", "--output", "--error"}}.skipOptions(args)
}

// parseBuiltin: builtin NAME ARGS... (runs the shell builtin NAME:
// `builtin eval '...'`, `builtin test ...`).
func parseBuiltin(args []word) (int, bool) { return optSpec{}.skipOptions(args) }

// parseCommand: command [-p] CMD...; `command -v/-V NAME` is a lookup and
// is not looked through.
func parseCommand(args []word) (int, bool) { return optSpec{flags: "p"}.skipOptions(args) }

// parseEnv: env [-i] [-u NAME] [NAME=value]... CMD...; -C (chdir) and -S
// (split string) stop the look-through.
func parseEnv(args []word) (int, bool) {
	i, ok := optSpec{flags: "i0", withArg: "u",
		longFlags: []string{"--ignore-environment", "--null"},
		longArg:   []string{"--unset"}}.skipOptions(args)
	if !ok {
		return 0, false
	}
	for i < len(args) && args[i].lit && isAssignWord(args[i].val) {
		i++
	}
	if i < len(args) && !args[i].lit {
		return 0, false
	}
	return i, true
}

// parseSudo: sudo [options] [NAME=value]... CMD...
func parseSudo(args []word) (int, bool) {
	i, ok := optSpec{flags: "AbEHiknPSsv", withArg: "CDghpRrTtUu",
		longFlags: []string{"--askpass", "--background", "--preserve-env", "--set-home", "--login",
			"--non-interactive", "--preserve-groups", "--stdin", "--shell", "--reset-timestamp"},
		longArg: []string{"--close-from", "--chdir", "--group", "--host", "--prompt", "--role",
			"--type", "--command-timeout", "--other-user", "--user"}}.skipOptions(args)
	for ok && i < len(args) && args[i].lit && isAssignWord(args[i].val) {
		i++
	}
	return i, ok
}

// parseDoas: doas [-Lns] [-C config] [-u user] CMD...
func parseDoas(args []word) (int, bool) {
	return optSpec{flags: "Lns", withArg: "Cu"}.skipOptions(args)
}

// parsePkexec: pkexec [--user USER] [--keep-cwd] CMD...
func parsePkexec(args []word) (int, bool) {
	return optSpec{longFlags: []string{"--keep-cwd", "--disable-internal-agent"}, longArg: []string{"--user"}}.skipOptions(args)
}

// parseExec: exec [-cl] [-a NAME] CMD...
func parseExec(args []word) (int, bool) { return optSpec{flags: "cl", withArg: "a"}.skipOptions(args) }
