package permission

import (
	"path"
	"slices"
	"strings"

	"pincer/core/permission/shell"
)

// What deny and ask rules see of a simple command (issue 10, class 11): the
// command as written, and every form it takes once wrappers are looked through
// (sudo doas pkexec exec command builtin env nice nohup timeout time stdbuf
// xargs setsid ionice chroot), an absolute or relative program path is reduced to
// its base name (/usr/bin/rm is rm), and git's global options are dropped (`git
// -C . -c a=b --no-pager push` is `git push`). A wrapper whose options are not
// understood yields every later word as a possible program, so a deny rule errs
// on the side of matching. Allow rules never see these forms: they match the
// command as written.
//
// A program deny rules cannot name — a non-literal program word (`$(echo rm) x`,
// `rm${IFS}x`, `"$X" y`), or a shell reading its program from standard input
// (`printf rm | sh`, `bash <<<'rm x'`) — is treated as matching every Bash deny
// and ask rule. An interpreter given inline code (`python3 -c`, `node -e`, a
// heredoc) may run anything too: with Bash deny rules it asks.

// wrapperSpec describes a wrapper's options: short flags taking an argument,
// long options taking one (without =), and how many operands come before the
// wrapped command (timeout's duration, chroot's directory).
type wrapperSpec struct {
	withArg  string
	longArg  []string
	operands int
	assigns  bool // NAME=value words may follow the options (env, sudo)
}

var ruleWrappers = map[string]wrapperSpec{
	"sudo":    {withArg: "CDghpRrTtUu", longArg: []string{"--close-from", "--chdir", "--group", "--host", "--prompt", "--role", "--type", "--command-timeout", "--other-user", "--user"}, assigns: true},
	"doas":    {withArg: "Cu"},
	"pkexec":  {longArg: []string{"--user"}},
	"exec":    {withArg: "a"},
	"command": {},
	"builtin": {},
	"env":     {withArg: "uCS", longArg: []string{"--unset", "--chdir", "--split-string"}, assigns: true},
	"nice":    {withArg: "n", longArg: []string{"--adjustment"}},
	"nohup":   {},
	"timeout": {withArg: "sk", longArg: []string{"--signal", "--kill-after"}, operands: 1},
	"time":    {withArg: "fo", longArg: []string{"--format", "--output"}},
	"stdbuf":  {withArg: "ioe", longArg: []string{"--input", "--output", "--error"}},
	"xargs":   {withArg: "adEILnPs", longArg: []string{"--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"}},
	"setsid":  {},
	"ionice":  {withArg: "cnp", longArg: []string{"--class", "--classdata", "--pid"}},
	"chroot":  {longArg: []string{"--userspec", "--groups"}, operands: 1},
}

// wrapperStarts returns where the wrapped command may start in args (the words
// after the wrapper's name): one index when the options are understood, every
// non-option index when they are not.
func wrapperStarts(name string, args []string) []int {
	spec := ruleWrappers[name]
	if name == "command" && len(args) > 0 && (args[0] == "-v" || args[0] == "-V") {
		return nil // a lookup, runs nothing
	}
	i := 0
	for i < len(args) {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		if strings.HasPrefix(a, "--") {
			if slices.Contains(spec.longArg, a) {
				i++
			}
			i++
			continue
		}
		if name == "nice" && isDigits(a[1:]) {
			i++
			continue
		}
		// a short cluster: an option taking an argument consumes the rest or the next word
		for j := 1; j < len(a); j++ {
			if strings.IndexByte(spec.withArg, a[j]) >= 0 {
				if j == len(a)-1 {
					i++
				}
				break
			}
		}
		i++
	}
	for spec.assigns && i < len(args) && isAssignment(args[i]) {
		i++
	}
	i += spec.operands
	if i < len(args) && !unknownOptions(name, args[:i]) {
		return []int{i}
	}
	var all []int
	for j, a := range args {
		if !strings.HasPrefix(a, "-") && !isAssignment(a) {
			all = append(all, j)
		}
	}
	return all
}

// unknownOptions reports whether the wrapper's options include one whose
// argument count is uncertain (a long option not in the table, with no =).
func unknownOptions(name string, opts []string) bool {
	spec := ruleWrappers[name]
	for _, o := range opts {
		if strings.HasPrefix(o, "--") && o != "--" && !strings.Contains(o, "=") && !slices.Contains(spec.longArg, o) &&
			!knownLongFlag(o) {
			return true
		}
	}
	return false
}

// knownLongFlag are long options of the wrappers that take no argument.
func knownLongFlag(o string) bool {
	switch o {
	case "--preserve-env", "--login", "--non-interactive", "--stdin", "--shell", "--set-home", "--background",
		"--ignore-environment", "--null", "--verbose", "--preserve-status", "--foreground", "--portability",
		"--quiet", "--no-run-if-empty", "--interactive", "--exit", "--keep-cwd", "--fork", "--wait", "--ctty":
		return true
	}
	return false
}

func isDigits(s string) bool {
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

// isAssignment reports whether w is NAME=value.
func isAssignment(w string) bool {
	i := strings.IndexByte(w, '=')
	if i <= 0 {
		return false
	}
	for j, c := range w[:i] {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || j > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// gitGlobalWithArg are git's global options that take the next word as their value.
var gitGlobalWithArg = map[string]bool{"-C": true, "-c": true, "--git-dir": true, "--work-tree": true,
	"--namespace": true, "--super-prefix": true, "--config-env": true, "--exec-path": false, "--list-cmds": true}

// gitSubcommand returns the index in words (words[0] is git) of git's
// subcommand, after the global options; len(words) when there is none.
func gitSubcommand(words []string) int {
	i := 1
	for i < len(words) {
		a := words[i]
		if !strings.HasPrefix(a, "-") {
			return i
		}
		if gitGlobalWithArg[a] {
			i++
		}
		i++
	}
	return i
}

// programName is the base name of a program word: /usr/bin/rm and ./rm are rm.
func programName(w string) string {
	if strings.Contains(w, "/") {
		return path.Base(w)
	}
	return w
}

// wordLists returns the word lists a command stands for: as written, and through
// wrappers, program paths and git's global options (bounded).
func wordLists(words []string) [][]string {
	if len(words) == 0 {
		return nil
	}
	lists := [][]string{words}
	seen := map[string]bool{strings.Join(words, "\x00"): true}
	add := func(l []string) {
		if len(l) == 0 {
			return
		}
		k := strings.Join(l, "\x00")
		if !seen[k] && len(lists) < 64 {
			seen[k] = true
			lists = append(lists, l)
		}
	}
	for i := 0; i < len(lists); i++ {
		l := lists[i]
		name := programName(l[0])
		if name != l[0] {
			add(append([]string{name}, l[1:]...))
		}
		if _, ok := ruleWrappers[name]; ok {
			for _, s := range wrapperStarts(name, l[1:]) {
				add(l[1+s:])
			}
		}
		if name == "git" {
			if j := gitSubcommand(l); j > 1 {
				add(append([]string{"git"}, l[j:]...))
			}
		}
	}
	return lists
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

// shells are the shell interpreters: given no script, they read their program
// from standard input.
var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true,
	"ash": true, "fish": true, "csh": true, "tcsh": true, "busybox": true, "yash": true, "posh": true}

// codeFlags are, per interpreter, the options whose value (or whose presence) is
// a program given inline.
var codeFlags = map[string][]string{
	"python": {"-c"}, "node": {"-e", "--eval", "-p", "--print"}, "nodejs": {"-e", "--eval", "-p", "--print"},
	"perl": {"-e", "-E"}, "ruby": {"-e"}, "php": {"-r", "-B", "-R", "-E", "-F"}, "lua": {"-e"}, "luajit": {"-e"},
	"deno": {"eval"}, "bun": {"-e", "--eval", "-p", "--print"}, "Rscript": {"-e"}, "osascript": {"-e"},
	"tclsh": {}, "wish": {}, "pwsh": {"-c", "-Command", "-command"}, "powershell": {"-c", "-Command", "-command"},
	"jshell": {}, "irb": {}, "R": {"-e"}, "julia": {"-e", "-E"}, "elixir": {"-e"}, "erl": {"-eval"}, "guile": {"-c"},
	"racket": {"-e"}, "ghci": {"-e"}, "runghc": {},
}

// interpreterName returns the interpreter family of a program name (python3.12
// is python), "" when it is not one.
func interpreterName(name string) string {
	if shells[name] {
		return name
	}
	if _, ok := codeFlags[name]; ok {
		return name
	}
	for _, fam := range []string{"python", "pypy", "perl", "ruby", "php", "lua", "node"} {
		if rest, ok := strings.CutPrefix(name, fam); ok && rest != "" && strings.Trim(rest, "0123456789.") == "" {
			if fam == "pypy" {
				return "python"
			}
			return fam
		}
	}
	return ""
}

// inlineProgram says how an interpreter command gets a program it does not name
// as a file: "-c" (a flag's inline code), "stdin" (no script operand, `-`, a
// heredoc or herestring), or "" (it runs a script file, or is no interpreter).
func inlineProgram(words []string, redirs []shell.Redirect) (interp, how string) {
	if len(words) == 0 {
		return "", ""
	}
	name := programName(words[0])
	interp = interpreterName(name)
	if interp == "" {
		return "", ""
	}
	for _, r := range redirs {
		switch strings.TrimLeft(r.Op, "0123456789") {
		case "<<", "<<-":
			return name, "a heredoc"
		case "<<<":
			return name, "a here-string"
		}
	}
	args := words[1:]
	flags := codeFlags[interp]
	if shells[interp] {
		flags = []string{"-c"}
	}
	for i, a := range args {
		switch {
		case a == "--" || a == "-":
			if a == "-" || i+1 >= len(args) {
				return name, "standard input"
			}
			return "", ""
		case shells[interp] && strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "s"):
			return name, "standard input"
		case slices.Contains(flags, a) || shells[interp] && strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "c"):
			return name, "an inline " + a + " string"
		case interp == "python" && strings.HasPrefix(a, "-c"):
			return name, "an inline -c string"
		case strings.HasPrefix(a, "-"):
			if interp == "python" && (a == "-m" || a == "-W" || a == "-X" || a == "-Q") ||
				shells[interp] && (a == "-o" || a == "+o" || a == "-O" || a == "+O") {
				if a == "-m" {
					return "", "" // a module, by name
				}
				// the option's value is the next word
				args = args[i+1:]
				if len(args) == 0 {
					return name, "standard input"
				}
				return inlineProgram(append([]string{words[0]}, args[1:]...), nil)
			}
		default:
			if interp == "deno" && a == "eval" {
				return name, "deno eval"
			}
			if interp == "deno" || interp == "bun" {
				return "", "" // deno run x.ts, bun test: a file or a subcommand
			}
			return "", "" // a script file
		}
	}
	return name, "standard input"
}

// opaqueProgram returns why deny rules cannot see what c runs: a non-literal
// program word, or a shell reading its program from standard input; "" when they
// can.
func opaqueProgram(c shell.Command, lists [][]string) string {
	for _, l := range lists {
		w := l[0]
		if !c.Literal && strings.ContainsAny(w, "$`\\\"'*?[{~(") {
			return "its program name `" + w + "` is not literal"
		}
		if interp, how := inlineProgram(l, c.Redirects); interp != "" && shells[interpreterName(programName(l[0]))] &&
			how != "" && !strings.HasPrefix(how, "an inline") {
			return interp + " reads its program from " + how
		}
	}
	return ""
}

// inlineCode returns why c runs code pincer cannot see (an interpreter given a
// program inline or on standard input), for deny rules to ask about; "" if none.
func inlineCode(c shell.Command, lists [][]string) string {
	for _, l := range lists {
		if interp, how := inlineProgram(l, c.Redirects); interp != "" {
			return interp + " runs a program from " + how
		}
	}
	return ""
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
// --config/-c (through wrappers); "" when it writes none of it.
func gitConfigWrite(lists [][]string) string {
	for _, l := range lists {
		if programName(l[0]) != "git" {
			continue
		}
		i := gitSubcommand(l)
		if i >= len(l) {
			continue
		}
		sub, rest := l[i], l[i+1:]
		switch sub {
		case "config":
			if !gitConfigReads(rest) {
				return "`git config` writes git's configuration"
			}
		case "init":
			return "`git init` writes a new .git directory with its configuration and hooks"
		case "submodule":
			if len(rest) == 0 || rest[0] != "status" && rest[0] != "summary" && rest[0] != "foreach" {
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
// exact whole line (issue 10, class 10): an interpreter fed a program inline or
// on standard input, xargs, find -exec, or a part whose meaning depends on a
// preceding cd; "" when per-part rules are safe.
func exactOnlyReason(parts []bashPart) string {
	cd := ""
	for _, p := range parts {
		c := p.cmd
		if cd != "" {
			return "`" + shorten(p.full) + "` runs after `" + cd + "`"
		}
		for _, l := range p.lists {
			name := programName(l[0])
			if interp, how := inlineProgram(l, c.Redirects); interp != "" {
				return interp + " reads a program from " + how
			}
			switch name {
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
		if shell.InterpreterProgram(c) {
			return "`" + shorten(p.full) + "` runs a program that is not in its words"
		}
		switch c.Origin {
		case "xargs":
			return "xargs runs commands built from its input"
		case "find -exec":
			return "find -exec runs commands on the files it finds"
		}
	}
	return ""
}
