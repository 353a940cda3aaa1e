package shell

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxDepth bounds the recursion into sh -c and eval strings and into the
// commands run by xargs and find -exec.
const maxDepth = 16

// Risk phrases that other functions of the package recognise.
const (
	riskParse         = "parse error: "
	riskForkBomb      = "fork bomb"
	riskNonLiteralCmd = "non-literal command name"
	riskStdinProgram  = "interpreter reading a program from stdin"
)

// Analyze parses src as bash and lists the simple commands it would run.
//
// Every statement is walked: lists (&& || ; & newlines), pipelines (| |&),
// subshells and brace groups, if/while/until/for/case bodies and
// conditions, function bodies, coprocesses. Commands inside $(...),
// backticks, <(...) and >(...) are found wherever they appear (arguments,
// assignments, redirection targets, unquoted heredoc bodies, case
// patterns, for lists, parameter expansion operands). Looked through:
// the wrappers listed in Command.Wrappers and the `time` keyword. The
// string of `sh|bash|zsh|dash|ksh|mksh ... -c STRING` and the joined
// arguments of `eval` are parsed recursively, also behind sudo (when not
// literal, that is a risk and the string is parsed with its parameter
// expansions left as written); the command run by `xargs` and by
// `find -exec/-execdir/-ok/-okdir` is reported as a nested Command too.
// A parent command comes before its nested ones (Origin tells the
// innermost kind of nesting).
//
// Non-simple commands that still evaluate something are reported as
// Commands so a rule or ReadOnly must accept them: `[[ ... ]]` (Words
// "[[", the test's words and operators, "]]"), `(( expr ))` and the
// header of `for (( init; cond; post ))` (Words "((", the expression's
// source, "))"), the header of a for/select loop or a case whose words
// have an expansion (Words "for", NAME, "in", items... or "case", WORD,
// "in", patterns...; never literal: `for i in $((x))` evaluates x), `let`,
// and declarations (`export`,
// `declare`, `local`, `readonly`, `typeset`). A statement of only
// assignments (`x=1`) is a Command with no Words; one of only redirections
// (`> file`) likewise. A function definition is a risk, and its body's
// commands are listed. Heredoc bodies are data, except for the
// expansions of unquoted ones.
//
// Pipelines: every command on the right of `|` has PipedInput; an
// interpreter reading its program from stdin has ProgramFromStdin (and
// the risk "interpreter reading a program from stdin"); a network
// fetcher whose output reaches an interpreter (`curl ... | sh`,
// `bash <(curl ...)`, `sh -c "$(curl ...)"`) is a risk starting with
// "download and execute: ", which HardDeny denies.
//
// Like Claude Code, the analysis is static: it never runs anything, and
// whatever it cannot see through (a non-literal command name, eval or
// sh -c string, a write to a non-literal path, a parse error) is a Risk,
// so the caller asks the user.
func Analyze(src string) (a Analysis) {
	defer func() {
		if r := recover(); r != nil {
			a = Analysis{Err: fmt.Errorf("shell analysis failed: %v", r)}
			a.Risks = []string{a.Err.Error()}
		}
	}()
	return analyze(src)
}

// analyze is Analyze without the panic guard (the fuzz test calls it).
func analyze(src string) Analysis {
	var a Analysis
	f, err := parse(src)
	if err != nil {
		a.Err = err
		a.Risks = []string{riskParse + err.Error()}
		return a
	}
	w := &walker{src: src, out: &a}
	w.stmts(f.Stmts, ctx{})
	if len(f.Stmts) > 0 && len(a.Commands) == 0 && len(a.Risks) == 0 {
		a.Risks = append(a.Risks, "no simple command found")
	}
	return a
}

func parse(src string) (*syntax.File, error) {
	return syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
}

// walker accumulates the Analysis of one source text (the top-level line
// or a nested sh -c / eval string).
type walker struct {
	src   string
	out   *Analysis
	depth int
}

// ctx is what enclosing constructs pass down to the commands they contain.
type ctx struct {
	origin   string
	wrappers []string   // from an enclosing `time`
	redirs   []Redirect // of enclosing compound commands
	piped    bool       // stdin is a pipe: inside the right side of | or |&
}

func (w *walker) risk(r string) {
	for _, x := range w.out.Risks {
		if x == r {
			return
		}
	}
	w.out.Risks = append(w.out.Risks, r)
}

// nested parses s, the string of an sh -c or the arguments of an eval,
// and adds its commands with the given origin.
func (w *walker) nested(s, origin string) {
	if w.depth >= maxDepth {
		w.risk("nesting too deep")
		return
	}
	f, err := parse(s)
	if err != nil {
		w.risk(fmt.Sprintf("parse error in %s string: %v", origin, err))
		return
	}
	sub := &walker{src: s, out: w.out, depth: w.depth + 1}
	sub.stmts(f.Stmts, ctx{origin: origin})
}

// source returns the source text of n.
func (w *walker) source(n syntax.Node) string {
	s, e := int(n.Pos().Offset()), int(n.End().Offset())
	if s < 0 || e > len(w.src) || s > e {
		return ""
	}
	return w.src[s:e]
}

// word converts a parsed word.
func (w *walker) word(wd *syntax.Word) word {
	src := w.source(wd)
	if v, ok := literalWord(wd); ok {
		return word{val: v, src: src, lit: true, approx: v}
	}
	return word{val: src, src: src, approx: w.approxWord(wd)}
}

// add appends a Command built from words (after wrappers; outer is the
// words as written, wrappers and their arguments included). The Command
// is Literal only when its words, the wrappers' words (`nice -n $((x))
// ls` expands $((x))), its assignments (assignsLit) and its redirections
// are, and no word is evaluated as code (markEvaluated).
func (w *walker) add(c ctx, ws []word, outer []word, assigns []string, assignsLit bool, wraps []string, redirs []Redirect) {
	if len(ws) > 0 && !ws[0].lit {
		w.risk(riskNonLiteralCmd)
	}
	ws = markEvaluated(ws)
	w.assignRisks(assigns)
	cmd := Command{
		Words:      values(ws),
		Assigns:    assigns,
		Wrappers:   concat(c.wrappers, wraps),
		Literal:    allLiteral(ws) && allLiteral(outer) && assignsLit && redirectsLiteral(redirs),
		Text:       joinWords(ws),
		Origin:     c.origin,
		Redirects:  copyRedirects(redirs),
		PipedInput: c.piped,
		EvalCode:   evaluatesCode(ws),
	}
	if len(outer) > len(ws) {
		cmd.Outer = values(outer)
	}
	if readsProgramFromStdin(ws) {
		cmd.ProgramFromStdin = true
		w.risk(riskStdinProgram)
	}
	w.out.Commands = append(w.out.Commands, cmd)
}

// redirectsLiteral reports whether every redirection's target (or
// heredoc body) is literal.
func redirectsLiteral(rs []Redirect) bool {
	for _, r := range rs {
		if !r.Literal {
			return false
		}
	}
	return true
}

func concat(a, b []string) []string {
	if len(a)+len(b) == 0 {
		return nil
	}
	return append(append([]string(nil), a...), b...)
}

// assignRisks reports assignments to names that are not harmless.
func (w *walker) assignRisks(assigns []string) {
	for _, a := range assigns {
		if name := assignName(a); !harmlessAssign(name) {
			w.risk("assignment to " + name)
		}
	}
}

// copyRedirects gives each Command its own slice: the redirections of a
// compound statement are shared by all the commands inside it.
func copyRedirects(rs []Redirect) []Redirect {
	if len(rs) == 0 {
		return nil
	}
	return append([]Redirect(nil), rs...)
}
