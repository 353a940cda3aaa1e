// Package shell analyses shell command lines for the permission engine.
//
// Everything here is a pure function of its inputs: Analyze parses a bash
// command line (mvdan.cc/sh/v3/syntax, LangBash) and flattens it into the
// simple commands it would run, looking through wrappers, substitutions,
// `sh -c`, `eval`, `xargs` and `find -exec`; ReadOnly, HardDeny and
// WritePaths classify the result. The semantics follow Claude Code's Bash
// permission rules: a rule such as `Bash(git diff:*)` must match every
// simple command of a compound line, not just the first word.
//
// The facts the permission engine builds on, one function or field each:
//
//   - Command.Literal: every word, assignment and redirect is a literal
//     and no word is evaluated by bash as code (arithmetic identifiers,
//     array subscripts); allow rules match only such commands;
//   - ReadOnly: the built-in read-only set, with per-program tables of
//     disqualifying options (Disqualified, readOnlyFlags);
//   - HarmlessTarget: the only write targets that write no file;
//   - Command.Forms, Command.Program, ParseGit, GitSubcommand: what deny
//     and ask rules match through wrappers, paths and git's global
//     options;
//   - Command.PipedInput, Command.ProgramFromStdin, InterpreterProgram:
//     commands whose program is not in their words;
//   - HardDeny: the limits no mode or rule lifts.
package shell

// Command is one simple command of a shell command line, after wrappers are
// looked through.
type Command struct {
	// Words is the command name then its arguments, each as its literal
	// value when it is literal; a non-literal word is given as its source text.
	Words []string
	// Assigns holds VAR=value prefixes as written (also those of a
	// looked-through `env`).
	Assigns []string
	// Wrappers lists the wrappers looked through, outermost first: timeout
	// nice nohup time stdbuf command builtin env (their own options and args
	// dropped). sudo, doas, pkexec and exec are not looked through here (a
	// rule must allow `sudo ...` itself); Forms and HardDeny look through them.
	Wrappers []string
	// Literal reports that the command is exactly its text, with nothing
	// evaluated: the command name, every argument, every assignment
	// prefix and every redirect target (and heredoc body) are literal, and
	// no word is one bash evaluates as code. Plain words and quoted
	// strings ('..', "..", $'..') are literal; parameter expansion of any
	// kind (${!x}, ${x@P}, ${a[i]}, ${x:off}), command/process
	// substitution, arithmetic expansion ($((..)), $[..]), unquoted globs
	// (* ? [..]), extended globs, brace expansion and a leading ~ are not.
	// Neither are literal words in an arithmetic or name context that
	// bash evaluates (see markEvaluated): `(( x ))`, `let x`,
	// `[[ 1 -eq x ]]`, `[[ -v 'a[$(id)]' ]]`, `test -v 'a[..]'`,
	// `printf -v 'a[..]'`, `read`/`unset`/`declare 'a[..]'`, `declare -i`.
	// This is the single "all literal" fact: ReadOnly requires it, and the
	// permission engine lets allow rules match only Literal commands.
	Literal bool
	// Text is the canonical text of this simple command for rule matching:
	// Words joined by single spaces, as a user would type them.
	Text string
	// Origin says where the command came from: "" for a top-level command
	// (also inside grouping (...) / {...} and control-flow bodies),
	// "substitution" ($(...) or backticks), "process-substitution"
	// (<(...), >(...)), "sh -c", "eval", "xargs", "find -exec".
	Origin string
	// Redirects are the command's redirections in source order.
	Redirects []Redirect
	// Outer is the command's words as written, wrappers included, when
	// Analyze looked through wrappers (Words is then a suffix of it, as
	// far as the words' values go); nil otherwise. Forms uses it.
	Outer []string
	// PipedInput reports that the command's stdin is a pipe: it is in the
	// right side of `|` or `|&` (also inside a group there, and in the
	// command substitutions of such a command, which inherit stdin). The
	// commands xargs runs are not: xargs gives them /dev/null.
	PipedInput bool
	// ProgramFromStdin reports that the command is an interpreter reading
	// its program from stdin (no script argument, sh -s, the script "-" or
	// /dev/stdin) or from a process substitution (`bash <(...)`): the
	// program it runs is not in its words, so a rule naming the command
	// says nothing about what runs (`printf 'rm x' | sh`). Analyze adds
	// the Risk "interpreter reading a program from stdin". Wrappers,
	// sudo and exec are looked through. See InterpreterProgram.
	ProgramFromStdin bool
	// EvalCode reports that a word bash evaluates as code (an arithmetic
	// expression or array subscript: printf -v, read, unset, declare,
	// test -v, [[ -eq ]], (( )), let; see markEvaluated) holds a command
	// substitution, a backtick or a parameter expansion as text: `printf
	// -v 'a[$(cmd)]' x` runs cmd, which no word names. The permission
	// engine treats such a command as matching every deny rule's program.
	EvalCode bool
}

// Redirect is one redirection of a simple command.
type Redirect struct {
	// Op is the operator with its file descriptor if written: ">", ">>",
	// "<", "2>", "&>", "&>>", ">|", "<>", "<<", "<<-", "<<<", ">&", "2>&", ...
	Op string
	// Target is the file word (literal value when Literal, else source
	// text); "" for heredocs.
	Target string
	// Literal reports that Target is a literal word.
	Literal bool
	// Write reports that the redirect writes to Target (>, >>, &>, &>>, 2>,
	// >|, <>); fd duplications like 2>&1 and >&- are not writes.
	Write bool
}

// Analysis is the result of Analyze.
type Analysis struct {
	// Commands lists every simple command in source order, nested ones
	// (substitutions, sh -c, eval, xargs, find -exec) included, flattened.
	Commands []Command
	// Risks are reasons this line needs approval whatever the rules say,
	// each a short human phrase ("non-literal command name",
	// "parse error: ...", "function definition", ...).
	Risks []string
	// Err is the parse error, if any; then Commands may be empty and the
	// engine should ask.
	Err error
}

// Env is the environment HardDeny evaluates paths against.
type Env struct {
	// Home is the user's home directory (literal path).
	Home string
	// Workspace is the workspace root (literal path).
	Workspace string
	// Cwd is the directory the command runs in.
	Cwd string
}
