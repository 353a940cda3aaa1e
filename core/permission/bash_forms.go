package permission

import (
	"path"
	"slices"
	"strings"

	"pincer/core/permission/shell"
)

// What deny and ask rules see of a simple command (issue 10, class 11): the
// command as written and every form shell.Command.Forms gives — wrappers looked
// through (sudo doas pkexec exec command builtin env nice nohup timeout time
// stdbuf xargs setsid ionice), a program path reduced to its base name
// (/usr/bin/rm is rm), git without its global options (`git -C . -c a=b
// --no-pager push` is `git push`). Allow rules never see these forms: they match
// the command as written.
//
// A program deny rules cannot name — a non-literal program (shell's Program is
// "": `$(echo rm) x`, `rm${IFS}x`, `"$X" y`), or an interpreter reading its
// program from standard input (ProgramFromStdin: `printf rm | sh`, `bash
// <<<'rm x'`) — is treated as matching every Bash deny and ask rule. Any other
// command whose program is not in its words (shell.InterpreterProgram: `python3
// -c`, `node -e`, a heredoc, xargs) may do what a deny rule forbids: with Bash
// deny rules it asks.

// programName is the base name of a program word: /usr/bin/rm and ./rm are rm.
func programName(w string) string {
	if strings.Contains(w, "/") {
		return path.Base(w)
	}
	return w
}

// ruleForms returns every text deny and ask rules match for c (with and without
// its assignments).
func ruleForms(c shell.Command, lists [][]string, base []string) []string {
	forms := base
	add := func(f string) {
		if f != "" && !slices.Contains(forms, f) {
			forms = append(forms, f)
		}
	}
	if len(c.Words) == 0 {
		return forms
	}
	assigns := strings.Join(c.Assigns, " ")
	for _, l := range lists[1:] {
		t := joinWords(l, c.Literal)
		add(t)
		add(joinNonEmpty(assigns, t))
	}
	return forms
}

// joinWords renders words as a command text: quoted as a user would type them
// when the command is literal, as written otherwise.
func joinWords(ws []string, literal bool) string {
	if !literal {
		return strings.Join(ws, " ")
	}
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = quoteWord(w)
	}
	return strings.Join(q, " ")
}

// opaqueProgram returns why deny rules cannot see what c runs (prog is
// c.Program()): a non-literal
// program, or an interpreter reading its program from standard input; "" when
// they can.
func opaqueProgram(c shell.Command, prog string) string {
	switch {
	case len(c.Words) == 0:
		return ""
	case prog == "":
		return "its program name is not literal"
	case c.ProgramFromStdin:
		return prog + " reads its program from standard input"
	case !c.Literal && (prog == "eval" || shells[prog] && nonLiteralScript(c.Words)):
		return prog + " runs a command string that is not literal"
	case prog == "hash" && slices.Contains(c.Words, "-p"):
		return "hash -p makes a name run another program"
	}
	return ""
}

// nonLiteralScript reports whether the string after a shell's -c option (in
// words, as source text when the command is not literal) may expand.
func nonLiteralScript(words []string) bool {
	for i, w := range words {
		if strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.Contains(w, "c") && i+1 < len(words) {
			return strings.ContainsAny(words[i+1], "$`")
		}
	}
	return false
}

// shells are the shell interpreters (for command strings that are not literal).
var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true,
	"ash": true, "fish": true, "csh": true, "tcsh": true, "yash": true, "posh": true, "busybox": true}

// inlineCode returns why c runs code that is not in its words (an interpreter
// given a program inline, by a heredoc or on standard input; xargs), for deny
// rules to ask about and for "always" to save only the exact line; "" if none.
func inlineCode(c shell.Command, prog string) string {
	if !shell.InterpreterProgram(c) {
		return ""
	}
	if prog == "" {
		prog = "the program"
	}
	if prog == "xargs" {
		return "xargs runs commands built from its input"
	}
	for _, r := range c.Redirects {
		switch strings.TrimLeft(r.Op, "0123456789") {
		case "<<", "<<-":
			return prog + " reads a program from a heredoc"
		case "<<<":
			return prog + " reads a program from a here-string"
		case "<":
			return prog + " reads a program from a file on standard input"
		}
	}
	if c.PipedInput && c.ProgramFromStdin {
		return prog + " reads a program from a pipe"
	}
	if c.ProgramFromStdin {
		return prog + " reads a program from standard input"
	}
	return prog + " runs a program given inline"
}

// forcedDelete reports whether c is `rm` with -f/--force (through wrappers).
func forcedDelete(lists [][]string) bool {
	for _, l := range lists {
		if programName(l[0]) != "rm" {
			continue
		}
		for _, a := range l[1:] {
			if a == "--" {
				break
			}
			if a == "--force" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "f") {
				return true
			}
		}
	}
	return false
}

// gitConfigWrite returns what a git command writes to git's configuration:
// `git config` (but not its reading forms), `git init`, `git submodule`, `git
// worktree add`, `git remote add|set-url|rename|remove`, `git clone` with
// --config/-c or a template (through wrappers); "" when it writes none of it.
func gitConfigWrite(lists [][]string) string {
	for _, l := range lists {
		g, ok := shell.ParseGit(l)
		if !ok || g.Sub == "" {
			continue
		}
		sub, rest := g.Sub, g.Rest
		switch sub {
		case "config":
			if !gitConfigReads(rest) {
				return "`git config` writes git's configuration"
			}
		case "init":
			return "`git init` writes a new .git directory with its configuration and hooks"
		case "submodule":
			if len(rest) == 0 || rest[0] != "status" && rest[0] != "summary" {
				return "`git submodule` writes .git/config and .git/modules"
			}
		case "worktree":
			if len(rest) > 0 && rest[0] == "add" {
				return "`git worktree add` writes a linked worktree's git directory"
			}
		case "remote":
			if len(rest) > 0 && slices.Contains([]string{"add", "set-url", "rename", "remove", "rm", "set-head", "set-branches"}, rest[0]) {
				return "`git remote " + rest[0] + "` writes .git/config"
			}
		case "clone":
			for _, a := range rest {
				if a == "-c" || a == "--config" || strings.HasPrefix(a, "--config=") || strings.HasPrefix(a, "--template") {
					return "`git clone` with configuration writes git's configuration"
				}
			}
		}
	}
	return ""
}

// gitConfigReads reports whether `git config ARGS` only reads.
func gitConfigReads(args []string) bool {
	if len(args) == 0 {
		return true
	}
	switch args[0] {
	case "get", "list", "get-color", "get-colorbool":
		return true
	case "set", "unset", "rename-section", "remove-section", "edit":
		return false
	}
	positional := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--get" || a == "--get-all" || a == "--get-regexp" || a == "--get-urlmatch" || a == "-l" ||
			a == "--list" || a == "--get-color" || a == "--get-colorbool":
			return true
		case a == "-e" || a == "--edit" || strings.HasPrefix(a, "--unset") || strings.HasPrefix(a, "--add") ||
			strings.HasPrefix(a, "--replace") || strings.HasPrefix(a, "--rename") || strings.HasPrefix(a, "--remove"):
			return false
		case a == "-f" || a == "--file" || a == "--blob" || a == "--type" || a == "--default":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			positional++
		}
	}
	return positional <= 1 // `git config NAME` reads; NAME VALUE writes
}

// exactOnlyReason returns why approving the command "always" may save only the
// exact whole line (issue 10, class 10): an interpreter fed a program inline, by
// a pipe, heredoc or here-string (shell.InterpreterProgram), xargs, find -exec,
// or a part whose meaning depends on a preceding cd; "" when per-part rules are
// safe.
func exactOnlyReason(parts []bashPart) string {
	cd := ""
	for _, p := range parts {
		c := p.cmd
		if cd != "" {
			return "`" + shorten(p.full) + "` runs after `" + cd + "`"
		}
		if p.inline != "" {
			return p.inline
		}
		switch c.Origin {
		case "xargs":
			return "xargs runs commands built from its input"
		case "find -exec":
			return "find -exec runs commands on the files it finds"
		}
		for _, l := range p.lists {
			switch programName(l[0]) {
			case "xargs":
				return "xargs runs commands built from its input"
			case "find":
				for _, a := range l[1:] {
					switch a {
					case "-exec", "-execdir", "-ok", "-okdir":
						return "find " + a + " runs commands on the files it finds"
					}
				}
			case "cd", "pushd", "popd":
				cd = shorten(p.full)
			}
		}
	}
	return ""
}

// argRunners are programs beyond the wrappers shell.Command.Forms looks through
// (whose options it parses exactly) that run
// a command given as their trailing arguments (debuggers, schedulers, namespace
// and privilege tools, multi-call binaries). Their options are not parsed: every
// later word that is not an option may start the command, so a deny rule errs on
// the side of matching.
var argRunners = map[string]bool{"busybox": true, "flock": true, "chroot": true, "nsenter": true, "unshare": true,
	"taskset": true, "chrt": true, "strace": true, "ltrace": true, "gdb": true, "valgrind": true, "catchsegv": true,
	"parallel": true, "fakeroot": true, "systemd-run": true, "runuser": true, "unbuffer": true, "rlwrap": true,
	"firejail": true, "bwrap": true, "proot": true, "xvfb-run": true, "dbus-run-session": true, "numactl": true,
	"cgexec": true, "prlimit": true, "torsocks": true, "proxychains": true, "proxychains4": true, "faketime": true,
	"eatmydata": true, "nocache": true, "chpst": true, "setpriv": true, "capsh": true, "watch": true, "entr": true,
	"su": true, "sg": true, "script": true, "trap": true}

// stringRunners are programs that run one of their arguments as a shell command
// string (su -c, script -c, sg GROUP CMD, watch, flock -c, trap, capsh -c).
var stringRunners = map[string]bool{"su": true, "runuser": true, "script": true, "sg": true, "watch": true,
	"flock": true, "trap": true, "capsh": true}

// runnerForms adds to lists the commands runners would run: every suffix of
// their arguments that starts with a non-option word, a lower-cased program name
// (a case-insensitive file system finds RM as rm), and the commands of the
// argument strings of stringRunners (parsed with shell.Analyze). It returns why
// the program is opaque when a runner's command string is not literal (or names
// a non-literal program); "" otherwise.
func runnerForms(c shell.Command, lists [][]string) ([][]string, string) {
	seen := map[string]bool{}
	for _, l := range lists {
		seen[strings.Join(l, "\x00")] = true
	}
	add := func(l []string) {
		k := strings.Join(l, "\x00")
		if len(l) > 0 && !seen[k] && len(lists) < 96 {
			seen[k] = true
			lists = append(lists, l)
		}
	}
	opaque := ""
	for i := 0; i < len(lists); i++ {
		l := lists[i]
		name := programName(l[0])
		if low := strings.ToLower(name); low != name {
			add(append([]string{low}, l[1:]...))
		}
		if !argRunners[name] {
			continue
		}
		for j := 1; j < len(l); j++ {
			if !strings.HasPrefix(l[j], "-") && !strings.HasPrefix(l[j], "+") {
				add(l[j:])
			}
		}
		if !stringRunners[name] {
			continue
		}
		if !c.Literal {
			opaque = name + " runs a command string that is not literal"
			continue
		}
		strs := l[1:]
		if name == "watch" {
			strs = append(strs, strings.Join(l[1:], " "))
		}
		for _, s := range strs {
			if !strings.ContainsAny(s, " \t;|&") {
				continue
			}
			a := shell.Analyze(s)
			for _, n := range a.Commands {
				if len(n.Words) > 0 && n.Program() == "" {
					opaque = name + " runs a command string whose program is not literal"
				}
				for _, f := range n.Forms() {
					add(f)
				}
			}
		}
	}
	return lists, opaque
}

// mayExpand reports whether w, a word of a command that is not literal (given
// as source text), may expand to something else: a parameter, substitution,
// glob, brace, tilde or quote.
func mayExpand(w string) bool { return strings.ContainsAny(w, "$`*?[{~\\\"'") }

// couldMatch reports whether a Bash rule could match a command once its
// non-literal words expand (issue 10, class 11: `git $(echo push) origin` may be
// `git push`): the rule's words before its first wildcard, compared word by word
// with lists' words, where a word that may expand matches any rule word and,
// since it may expand to several words, everything after it. Only commands
// that are not literal are looked at this way.
func couldMatch(r Rule, c shell.Command, lists [][]string) bool {
	if c.Literal || r.Tool != "Bash" || r.Specifier == "" {
		return false
	}
	spec := strings.TrimSuffix(r.Specifier, ":*")
	if i := strings.IndexByte(spec, '*'); i >= 0 {
		spec = spec[:i]
	}
	want := strings.Fields(spec)
	if len(want) == 0 {
		return false
	}
	for _, l := range lists {
		for i := 0; i <= len(l); i++ {
			if i == len(want) {
				return true // the rule's fixed words all matched
			}
			if i == len(l) {
				break
			}
			if mayExpand(l[i]) {
				return true
			}
			if l[i] != want[i] && !(i == 0 && programName(l[i]) == want[i]) {
				break
			}
		}
	}
	return false
}

// gitAliasForms returns the commands git aliases given on its command line
// would run (`git -c alias.p=push p` is `git push`), and why git's subcommand
// is unknown when an alias runs a shell command or aliases come from the
// environment (GIT_CONFIG_* assignments, --config-env).
func gitAliasForms(c shell.Command, lists [][]string) ([][]string, string) {
	var out [][]string
	opaque := ""
	for _, a := range c.Assigns {
		if strings.HasPrefix(a, "GIT_CONFIG") {
			opaque = "git's configuration (its aliases) comes from the environment"
		}
	}
	for _, l := range lists {
		g, ok := shell.ParseGit(l)
		if !ok {
			continue
		}
		for i, w := range g.Globals {
			v := w
			if w == "-c" && i+1 < len(g.Globals) {
				v = g.Globals[i+1]
			}
			if strings.HasPrefix(w, "--config-env") {
				opaque = "git's configuration (its aliases) comes from the environment"
			}
			name, val, ok := strings.Cut(v, "=")
			alias, isAlias := strings.CutPrefix(strings.ToLower(name), "alias.")
			if !ok || !isAlias || alias != strings.ToLower(g.Sub) {
				continue
			}
			if strings.HasPrefix(val, "!") {
				for _, n := range shell.Analyze(val[1:]).Commands {
					if len(n.Words) > 0 && n.Program() == "" {
						opaque = "a git alias runs a command whose program is not literal"
					}
					out = append(out, n.Forms()...)
				}
				continue
			}
			out = append(out, append(append([]string{"git"}, strings.Fields(val)...), g.Rest...))
		}
	}
	return out, opaque
}

// findDeleteTargets returns the starting points of `find ... -delete` (its
// paths, "." when none), or nil when c does not delete with find.
func findDeleteTargets(lists [][]string) []string {
	for _, l := range lists {
		if programName(l[0]) == "find" && slices.Contains(l[1:], "-delete") {
			return findStartPaths([][]string{l})
		}
	}
	return nil
}

// findStartPaths returns the starting points of a find command (its paths
// before the first expression, "." when none), or nil when c is not find.
func findStartPaths(lists [][]string) []string {
	for _, l := range lists {
		if programName(l[0]) != "find" {
			continue
		}
		var paths []string
		for _, a := range l[1:] {
			if a == "-H" || a == "-L" || a == "-P" {
				continue
			}
			if strings.HasPrefix(a, "-") || a == "(" || a == "!" || a == "," {
				break
			}
			paths = append(paths, a)
		}
		if len(paths) == 0 {
			paths = []string{"."}
		}
		return paths
	}
	return nil
}
