package permission

import (
	"path"
	"strings"

	"pincer/core/permission/shell"
)

// Code deny rules cannot see, beyond a program that is not literal
// (opaqueProgram): a command that holds code bash evaluates from text, or
// that defines code bash runs later, is treated as matching every Bash deny
// and ask rule, like `$(echo rm) x`:
//
//   - a word bash evaluates as code holding `$(`, a backtick or `${`
//     (shell.Command.EvalCode: `printf -v 'a[$(rm x)]' v`, `read`, `unset`,
//     `declare`, `test -v`, `[[ -eq ]]`, `(( ))`, `let`);
//   - definitions of code run later: `mapfile`/`readarray` -C (a callback),
//     `alias NAME=...`, `complete`/`compgen` -C, `bind -x`, `enable -f` (a
//     builtin loaded from a shared object), an assignment to a variable whose
//     value bash or a program runs (PROMPT_COMMAND, BASH_ENV, ENV, PS0/PS1/PS2/
//     PS4, LESSOPEN, LESSCLOSE, BASH_FUNC_*), `source`/`.` of a file named by a
//     word that is not literal;
//   - editors and pagers given shell commands as arguments: ex, vi, vim, nvim
//     (view, rvim, gvim, vimdiff, evim) with -c, --cmd or +CMD holding `!`,
//     `system(` or a shell command, less and more with +CMD holding `!`.
//
// Not covered (docs/SECURITY.md): a deny rule names a program, so it does not
// follow a program under another name (`ln -s /bin/rm x; ./x`), other programs
// that delete (unlink, find -delete, git rm), or a program that runs commands
// from its own input files (a makefile, a vimrc, a script the line writes).
// make given a makefile or recipe on its command line (-f, --eval, -E) runs a
// program pincer cannot see: with Bash deny rules it asks, as python3 -c does
// (makeInline).

// codeAssigns are variables whose value bash (or a program) runs as code.
var codeAssigns = map[string]bool{"PROMPT_COMMAND": true, "BASH_ENV": true, "ENV": true, "PS0": true, "PS1": true,
	"PS2": true, "PS4": true, "LESSOPEN": true, "LESSCLOSE": true}

// codeAssign reports whether an assignment NAME=value (or a declaration's
// argument) sets a variable whose value runs as code.
func codeAssign(a string) bool {
	name, _, ok := strings.Cut(a, "=")
	name = strings.TrimSuffix(name, "+")
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	return ok && (codeAssigns[name] || strings.HasPrefix(name, "BASH_FUNC_"))
}

// editors are the vi family, whose -c/--cmd/+CMD arguments are ex commands
// (`!cmd` runs a shell command).
var editors = map[string]bool{"ex": true, "vi": true, "vim": true, "nvim": true, "view": true, "rvim": true,
	"gvim": true, "vimdiff": true, "evim": true, "nex": true, "nvi": true, "elvis": true, "vim.basic": true,
	"vim.tiny": true}

// shortFlag reports whether w is a cluster of short options holding letter.
func shortFlag(w string, letter byte) bool {
	return len(w) > 1 && w[0] == '-' && w[1] != '-' && strings.IndexByte(w[1:], letter) >= 0
}

// exRunsShell reports whether an ex command (or vim script text) may run a
// shell command.
func exRunsShell(s string) bool {
	return strings.Contains(s, "!") || strings.Contains(s, "system") || strings.Contains(s, "sh") ||
		strings.Contains(s, "term") || strings.Contains(s, "py") || strings.Contains(s, "lua") ||
		strings.Contains(s, "perl") || strings.Contains(s, "ruby") || strings.Contains(s, "so")
}

// laterCode returns why deny rules cannot see code c evaluates from text or
// defines to run later (see above); "" when none.
func laterCode(c shell.Command, lists [][]string) string {
	if c.EvalCode {
		return "bash evaluates a word of it as code, and that code runs a command"
	}
	for _, a := range c.Assigns {
		if codeAssign(a) {
			return "it sets " + strings.SplitN(a, "=", 2)[0] + ", whose value runs as code"
		}
	}
	for _, l := range lists {
		if why := definesCode(l, c.Literal); why != "" {
			return why
		}
	}
	return ""
}

// definesCode is laterCode for one word list (a form of the command).
func definesCode(l []string, literal bool) string {
	if len(l) == 0 {
		return ""
	}
	name := programName(l[0])
	args := l[1:]
	switch name {
	case "mapfile", "readarray":
		for _, a := range args {
			if shortFlag(a, 'C') || strings.HasPrefix(a, "--callback") {
				return name + " -C runs a callback command string"
			}
		}
	case "alias":
		for _, a := range args {
			if strings.Contains(a, "=") {
				return "alias defines a command run under another name"
			}
		}
	case "complete", "compgen":
		for _, a := range args {
			if shortFlag(a, 'C') {
				return name + " -C defines a command run later"
			}
		}
	case "bind":
		for _, a := range args {
			if shortFlag(a, 'x') {
				return "bind -x defines a command run later"
			}
		}
	case "enable":
		for _, a := range args {
			if shortFlag(a, 'f') {
				return "enable -f loads a builtin from a shared object"
			}
		}
	case "declare", "typeset", "local", "export", "readonly":
		for _, a := range args {
			if codeAssign(a) {
				return name + " sets " + strings.SplitN(a, "=", 2)[0] + ", whose value runs as code"
			}
		}
	case "source", ".":
		if len(args) > 0 && !literal && mayExpand(args[0]) {
			return name + " runs a file that a word that is not literal names"
		}
	case "less", "more":
		for _, a := range args {
			if strings.HasPrefix(a, "+") && strings.Contains(a, "!") {
				return name + " +! runs a shell command"
			}
		}
	}
	if editors[name] || editors[strings.TrimSuffix(path.Base(name), ".exe")] {
		for i, a := range args {
			var cmd string
			switch {
			case (a == "-c" || a == "--cmd" || a == "-S") && i+1 < len(args):
				cmd = args[i+1]
			case shortFlag(a, 'c') && !strings.HasPrefix(a, "--") && i+1 < len(args):
				cmd = args[i+1] // ex -sc CMD
			case strings.HasPrefix(a, "+") && a != "+":
				cmd = a[1:]
			case strings.HasPrefix(a, "-c") && len(a) > 2:
				cmd = a[2:]
			}
			if a == "-S" || !literal && cmd != "" || exRunsShell(cmd) {
				return name + " runs editor commands given as arguments, which may run shell commands"
			}
		}
	}
	return ""
}

// makeInline returns why make runs a program given on its command line (a
// makefile named by -f, a recipe by --eval/-E), for deny rules to ask about;
// "" if not.
func makeInline(lists [][]string) string {
	for _, l := range lists {
		name := programName(l[0])
		if name != "make" && name != "gmake" && name != "bmake" && name != "remake" {
			continue
		}
		for _, a := range l[1:] {
			if a == "--" {
				break
			}
			if a == "-f" || a == "-E" || strings.HasPrefix(a, "--file") || strings.HasPrefix(a, "--makefile") ||
				strings.HasPrefix(a, "--eval") || !strings.HasPrefix(a, "--") && (shortFlag(a, 'f') || shortFlag(a, 'E')) {
				return name + " runs the recipes of a makefile or text given on its command line"
			}
		}
	}
	return ""
}
