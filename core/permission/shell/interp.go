package shell

import (
	"path"
	"strings"
)

// Interpreters run a program that may not be in their words: given inline
// (-c, -e, --eval), read from stdin (a pipe, a heredoc, a here-string, a
// file redirect, or no script argument at all) or from a pipe named on
// the command line (`bash <(curl ...)`). A rule saved for such a command
// would allow any program, and a deny rule cannot see the program's
// commands, so the analysis tells these shapes apart.

// progKind is where an interpreter's program comes from.
type progKind int

const (
	progNone    progKind = iota // not an interpreter
	progFile                    // a script file named by a literal operand (or a module: python -m)
	progInline                  // the program is a word: -c STRING, -e CODE, awk 'prog'
	progStdin                   // read from stdin: no script operand, -s, "-", /dev/stdin
	progPipe                    // a process substitution operand: <(...)
	progUnknown                 // a non-literal word where an option may be
)

// interpSpec describes an interpreter's command line. inline letters take
// the program as their argument (attached or the next word); with
// inlineOperand (sh -c) the program is the first operand instead. args
// letters take an argument (attached or the next word). stdin letters
// mean the program is read from stdin (sh -s). module letters name a
// module to run (python -m). firstInline: the first operand is the
// program (awk).
type interpSpec struct {
	inline, args, stdin, module string
	optional, file              string // letters with an attached-only argument; letters naming the program file
	inlineLong, argLong         []string
	inlineOperand, firstInline  bool
	noStdin                     bool // no script operand is an error, not a program read from stdin (source, .)
}

var shellSpec = interpSpec{inline: "c", args: "oO", stdin: "s", argLong: []string{"--rcfile", "--init-file"}, inlineOperand: true}

// interpreters maps a program's base name (versions stripped: python3.12
// is python) to its command line.
var interpreters = map[string]interpSpec{
	"sh": shellSpec, "bash": shellSpec, "zsh": shellSpec, "dash": shellSpec, "ksh": shellSpec,
	"mksh": shellSpec, "ash": shellSpec, "yash": shellSpec, "posh": shellSpec, "rbash": shellSpec,
	"fish":      {inline: "c", argLong: []string{"--init-command"}, inlineLong: []string{"--command"}},
	"python":    {inline: "c", args: "WX", module: "m"},
	"pypy":      {inline: "c", args: "WX", module: "m"},
	"node":      {inline: "ep", args: "r", inlineLong: []string{"--eval", "--print"}, argLong: []string{"--require", "--import", "--loader"}},
	"nodejs":    {inline: "ep", args: "r", inlineLong: []string{"--eval", "--print"}, argLong: []string{"--require", "--import", "--loader"}},
	"bun":       {inline: "ep", inlineLong: []string{"--eval", "--print"}},
	"perl":      {inline: "eE", args: "I", optional: "Mmlix0dCD"},
	"ruby":      {inline: "e", args: "rICEF", optional: "TWx"},
	"php":       {inline: "rBRE", args: "cdzF"},
	"lua":       {inline: "e", args: "l"},
	"luajit":    {inline: "e", args: "lbj"},
	"tclsh":     {},
	"wish":      {},
	"expect":    {inline: "c"},
	"Rscript":   {inline: "e"},
	"R":         {inline: "e", inlineLong: []string{"--file"}},
	"osascript": {inline: "e", args: "ls"},
	"julia":     {inline: "eE", inlineLong: []string{"--eval", "--print"}},
	"elixir":    {inline: "e", inlineLong: []string{"--eval"}},
	"guile":     {inline: "c"},
	"awk":       {args: "vF", file: "f", firstInline: true, inlineLong: []string{"--source"}},
	"gawk":      {args: "vF", file: "fE", inline: "e", firstInline: true, inlineLong: []string{"--source"}},
	"mawk":      {args: "vF", file: "f", firstInline: true},
	"nawk":      {args: "vF", file: "f", firstInline: true},
	"sed":       {inline: "e", file: "f", args: "l", optional: "i", firstInline: true, inlineLong: []string{"--expression"}},
	"source":    {noStdin: true},
	".":         {noStdin: true},
}

// interpreterName returns the interpreters key for a program's base name:
// trailing version digits and dots are dropped (python3.12, lua5.4,
// php8.2); pwsh and powershell are reported as "pwsh".
func interpreterName(name string) (string, bool) {
	name = path.Base(name)
	if name == "pwsh" || name == "powershell" || name == "pwsh-preview" {
		return "pwsh", true
	}
	if _, ok := interpreters[name]; ok {
		return name, true
	}
	trimmed := strings.TrimRight(name, "0123456789.")
	if trimmed != name && trimmed != "" {
		if _, ok := interpreters[trimmed]; ok {
			return trimmed, true
		}
	}
	return "", false
}

// programOf says where the program of interpreter name (an interpreters
// key or "pwsh"; "deno" too) comes from, given its arguments; idx is the
// index in args of the program word (inline), script operand (file,
// pipe), or -1.
func programOf(name string, args []word) (progKind, int) {
	switch name {
	case "pwsh":
		return pwshProgram(args)
	case "deno":
		return denoProgram(args)
	}
	spec, ok := interpreters[name]
	if !ok {
		return progNone, -1
	}
	inlineMode := false
	operand := func(i int) (progKind, int) {
		v := args[i]
		switch {
		case inlineMode || spec.firstInline:
			return progInline, i
		case !v.lit && strings.HasPrefix(v.src, "<("):
			return progPipe, i
		case v.lit && isStdinPath(v.val):
			return progStdin, i
		}
		return progFile, i
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.val
		if !a.lit {
			if strings.HasPrefix(a.src, "<(") || inlineMode || spec.firstInline || !strings.HasPrefix(a.src, "$") && !strings.HasPrefix(a.src, `"$`) {
				return operand(i)
			}
			return progUnknown, i
		}
		switch {
		case v == "--":
			if i+1 < len(args) {
				return operand(i + 1)
			}
			return stdinOrInline(inlineMode)
		case v == "-":
			if inlineMode {
				return progInline, i
			}
			return progStdin, i
		case strings.HasPrefix(v, "--"):
			n, _, has := strings.Cut(v, "=")
			switch {
			case contains(spec.inlineLong, n):
				if has {
					return progInline, i
				}
				return progInline, min(i+1, len(args)-1)
			case contains(spec.argLong, n) && !has:
				i++
			}
		case len(v) > 1 && (v[0] == '-' || v[0] == '+' && spec.inlineOperand):
			for j := 1; j < len(v); j++ {
				c := v[j]
				switch {
				case strings.IndexByte(spec.inline, c) >= 0:
					if spec.inlineOperand {
						inlineMode = true
						continue
					}
					if j < len(v)-1 {
						return progInline, i
					}
					if i+1 < len(args) {
						return progInline, i + 1
					}
					return progInline, -1
				case strings.IndexByte(spec.stdin, c) >= 0:
					return progStdin, -1
				case strings.IndexByte(spec.module, c) >= 0 || strings.IndexByte(spec.file, c) >= 0:
					if j < len(v)-1 {
						return progFile, i
					}
					return progFile, min(i+1, len(args)-1)
				case strings.IndexByte(spec.optional, c) >= 0:
					j = len(v)
				case strings.IndexByte(spec.args, c) >= 0:
					if j == len(v)-1 {
						i++
					}
					j = len(v)
				}
			}
		default:
			return operand(i)
		}
	}
	if spec.noStdin {
		return progFile, -1
	}
	return stdinOrInline(inlineMode || spec.firstInline)
}

func stdinOrInline(inline bool) (progKind, int) {
	if inline {
		return progInline, -1
	}
	return progStdin, -1
}

// isStdinPath reports whether a script operand names stdin.
func isStdinPath(p string) bool {
	switch path.Clean(p) {
	case "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0":
		return true
	}
	return false
}

// pwshProgram: pwsh [-NoProfile ...] [-Command|-c|-EncodedCommand|-e|-ec CODE] [-File|-f FILE] [FILE].
func pwshProgram(args []word) (progKind, int) {
	for i, a := range args {
		if !a.lit {
			return progUnknown, i
		}
		v := strings.ToLower(a.val)
		switch {
		case v == "-":
			return progStdin, i
		case v == "-c" || v == "-e" || v == "-ec" || strings.HasPrefix("-command", v) && len(v) > 2 ||
			strings.HasPrefix("-encodedcommand", v) && len(v) > 2:
			return progInline, min(i+1, len(args)-1)
		case v == "-f" || strings.HasPrefix("-file", v) && len(v) > 2:
			return progFile, min(i+1, len(args)-1)
		case strings.HasPrefix(v, "-"):
		default:
			return progFile, i
		}
	}
	return progStdin, -1
}

// denoProgram: deno eval CODE; deno run [options] - | FILE; deno FILE.
func denoProgram(args []word) (progKind, int) {
	if len(args) == 0 {
		return progStdin, -1
	}
	if !args[0].lit {
		return progUnknown, 0
	}
	switch args[0].val {
	case "eval":
		return progInline, min(1, len(args)-1)
	case "run", "repl", "test", "bench", "serve":
	default:
		return progFile, 0
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case !a.lit:
			return progUnknown, i
		case a.val == "-":
			return progStdin, i
		case strings.HasPrefix(a.val, "-"):
		default:
			return progFile, i
		}
	}
	return progStdin, -1
}

// interpreterOf returns where the program of the command ws (already
// unwrapped) comes from; progNone when it is not an interpreter.
func interpreterOf(ws []word) (progKind, int) {
	if len(ws) == 0 || !ws[0].lit {
		return progNone, -1
	}
	name := path.Base(ws[0].val)
	args := ws[1:]
	if name == "busybox" && len(args) > 0 && args[0].lit {
		name, args = path.Base(args[0].val), args[1:]
		k, i := interpreterOfName(name, args)
		if i >= 0 {
			i++
		}
		return k, i
	}
	return interpreterOfName(name, args)
}

func interpreterOfName(name string, args []word) (progKind, int) {
	if name == "deno" {
		return denoProgram(args)
	}
	key, ok := interpreterName(name)
	if !ok {
		return progNone, -1
	}
	return programOf(key, args)
}

// readsProgramFromStdin reports whether the command ws (wrappers not yet
// looked through) is an interpreter reading its program from stdin or a
// pipe (see Command.ProgramFromStdin).
func readsProgramFromStdin(ws []word) bool {
	k, _ := interpreterOf(unwrapAll(ws))
	return k == progStdin || k == progPipe
}

// InterpreterProgram reports whether c runs a program that is not one of
// its literal words naming a file: an interpreter (sh bash zsh dash ksh
// mksh ash fish, python* pypy*, node nodejs deno bun, perl ruby php lua
// luajit tclsh wish expect Rscript R osascript pwsh powershell julia elixir
// guile, awk gawk mawk nawk, sed (whose e command and s///e flag run shell
// commands), source and .; versioned names such as
// python3.12 included; sudo, env and the other wrappers looked through)
// whose program is given inline (sh -c, python -c, perl -e/-E, ruby -e,
// node -e/-p/--eval/--print, php -r/-B/-R/-E, lua -e, pwsh -Command,
// deno eval, awk 'program', gawk --source, sed 'script', sed -e), read from stdin (no script
// argument — a pipe, a heredoc, a here-string, a file redirect or the
// terminal feeds it — or sh -s, or the script "-" or /dev/stdin), named by
// a process substitution (`bash <(...)`), or not known (a non-literal word
// where an option may be); and xargs, which runs commands built from its
// input. `python3 script.py` and `bash build.sh` are not: their program is
// a named file. The permission engine uses this to save such commands
// only as exact whole-command rules, or to offer no rule (issue 10,
// class 10).
func InterpreterProgram(c Command) bool {
	ws := unwrapAll(stringWords(c.Words, c.Literal))
	if len(ws) == 0 {
		return false
	}
	if ws[0].lit && path.Base(ws[0].val) == "xargs" {
		return true
	}
	k, _ := interpreterOf(ws)
	switch k {
	case progInline, progStdin, progPipe, progUnknown:
		return true
	}
	return false
}

// fetchers are the programs that download from the network to stdout.
var fetchers = map[string]bool{
	"curl": true, "wget": true, "wget2": true, "fetch": true, "aria2c": true, "http": true, "https": true,
	"httpie": true, "xh": true, "xhs": true, "lwp-request": true, "nc": true, "ncat": true, "netcat": true,
	"socat": true, "telnet": true, "ssh": true,
}

// isFetcher reports whether c is a network fetcher (wrappers looked through).
func isFetcher(c Command) bool {
	ws := unwrapAll(stringWords(c.Words, c.Literal))
	return len(ws) > 0 && ws[0].lit && fetchers[path.Base(ws[0].val)]
}

// hasSubstText reports whether source text holds a command or process
// substitution.
func hasSubstText(s string) bool {
	return strings.Contains(s, "$(") || strings.Contains(s, "`") || strings.Contains(s, "<(")
}

// riskDownloadExec prefixes the risk of a fetched program being run;
// HardDeny denies it.
const riskDownloadExec = "download and execute: "

// downloadExec reports a pipeline whose left side (Commands[begin:start])
// runs a network fetcher and whose right side (Commands[start:]) runs an
// interpreter reading its program from the pipe, a non-literal program,
// or an interpreter under xargs.
func (w *walker) downloadExec(begin, start int) {
	cmds := w.out.Commands
	fetch := ""
	for _, c := range cmds[begin:start] {
		if isFetcher(c) {
			fetch = c.Text
			break
		}
	}
	if fetch == "" {
		return
	}
	for _, c := range cmds[start:] {
		sink := c.ProgramFromStdin
		if len(c.Words) > 0 {
			ws := unwrapAll(stringWords(c.Words, c.Literal))
			if len(ws) > 0 && !ws[0].lit && !looksLiteral(ws[0].val) {
				sink = true
			}
			if k, _ := interpreterOf(ws); c.Origin == "xargs" && k != progNone {
				sink = true
			}
		}
		if sink {
			w.risk(riskDownloadExec + "`" + fetch + "` is piped into `" + c.Text + "`")
			return
		}
	}
}

// downloadExecCall reports a command (Commands[i0]) that runs, as its
// program or its command name, the output of a network fetcher run in a
// substitution: `bash <(curl ...)`, `sh -c "$(curl ...)"`,
// `eval "$(wget ...)"`, `source <(curl ...)`, `$(curl ...)`,
// `bash < <(curl ...)`, `python3 <<< "$(curl ...)"`.
func (w *walker) downloadExecCall(i0 int) {
	cmds := w.out.Commands
	if i0 >= len(cmds) {
		return
	}
	main := cmds[i0]
	if isFetcher(main) {
		// `curl x > >(sh)`, `curl -o >(bash) x`: a process substitution
		// reads what the fetcher writes
		for _, c := range cmds[i0+1:] {
			if c.Origin == "process-substitution" && c.ProgramFromStdin {
				w.risk(riskDownloadExec + "`" + main.Text + "` writes into `" + c.Text + "`")
				return
			}
		}
	}
	fetch := ""
	for _, c := range cmds[i0+1:] {
		if (c.Origin == "substitution" || c.Origin == "process-substitution") && isFetcher(c) {
			fetch = c.Text
			break
		}
	}
	if fetch == "" {
		return
	}
	ws := unwrapAll(stringWords(main.Words, main.Literal))
	if len(ws) == 0 {
		return
	}
	runs := false
	switch k, idx := interpreterOf(ws); {
	case !ws[0].lit && hasSubstText(ws[0].val):
		runs = true
	case ws[0].lit && path.Base(ws[0].val) == "eval":
		for _, a := range ws[1:] {
			runs = runs || hasSubstText(a.src)
		}
	case (k == progInline || k == progPipe || k == progFile || k == progUnknown) && idx >= 0 && idx+1 < len(ws):
		runs = hasSubstText(ws[idx+1].src)
	case k == progStdin:
		for _, r := range main.Redirects {
			if (r.Op == "<" || r.Op == "<<<" || r.Op == "0<") && hasSubstText(r.Target) {
				runs = true
			}
		}
	}
	if runs {
		w.risk(riskDownloadExec + "the output of `" + fetch + "` is run by `" + main.Text + "`")
	}
}
