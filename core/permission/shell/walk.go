package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

func (w *walker) stmts(ss []*syntax.Stmt, c ctx) {
	for _, s := range ss {
		w.stmt(s, c)
	}
}

// stmt walks one statement. Its redirections apply to every command it
// contains, so compound statements pass them down.
func (w *walker) stmt(s *syntax.Stmt, c ctx) {
	var redirs []Redirect
	for _, r := range s.Redirs {
		rd := w.redirect(r)
		if rd.Write && !rd.Literal {
			w.risk("write redirect to a non-literal path")
		}
		redirs = append(redirs, rd)
	}
	redirs = append(redirs, c.redirs...)
	c.redirs = redirs
	i0 := len(w.out.Commands)
	if _, ok := s.Cmd.(*syntax.CallExpr); ok {
		defer w.downloadExecCall(i0)
	}
	if s.Cmd == nil {
		// only redirections, such as `> file`
		w.out.Commands = append(w.out.Commands, Command{Literal: redirectsLiteral(redirs), Origin: c.origin,
			Wrappers: concat(c.wrappers, nil), Redirects: copyRedirects(redirs), PipedInput: c.piped})
	} else {
		w.command(s.Cmd, c)
	}
	for _, r := range s.Redirs {
		w.subsCtx(r, c.piped)
	}
}

func (w *walker) command(cmd syntax.Command, c ctx) {
	switch x := cmd.(type) {
	case *syntax.CallExpr:
		w.call(x, c)
	case *syntax.BinaryCmd:
		if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
			w.pipe(x, c)
			return
		}
		w.stmt(x.X, c)
		w.stmt(x.Y, c)
	case *syntax.Subshell:
		w.stmts(x.Stmts, c)
	case *syntax.Block:
		w.stmts(x.Stmts, c)
	case *syntax.IfClause:
		for cl := x; cl != nil; cl = cl.Else {
			w.stmts(cl.Cond, c)
			w.stmts(cl.Then, c)
		}
	case *syntax.WhileClause:
		w.stmts(x.Cond, c)
		w.stmts(x.Do, c)
	case *syntax.ForClause:
		if cl, ok := x.Loop.(*syntax.CStyleLoop); ok {
			// for (( init; cond; post )): arithmetic like (( ))
			e := w.source(cl)
			e = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(e), "(("), "))")
			w.add(c, []word{raw("(("), {val: e, src: e, lit: noExpansion(cl) && numericExpr(e), code: true}, raw("))")}, nil, nil, true, nil, c.redirs)
		}
		if it, ok := x.Loop.(*syntax.WordIter); ok && !noExpansion(it) {
			// the list is expanded (`for i in $((x))` evaluates x): a
			// Command of its own, never literal
			kw := "for"
			if x.Select {
				kw = "select"
			}
			ws := []word{raw(kw), raw(it.Name.Value), raw("in")}
			for _, item := range it.Items {
				ws = append(ws, w.word(item))
			}
			w.add(c, ws, nil, nil, true, nil, c.redirs)
		}
		w.subs(x.Loop)
		w.stmts(x.Do, c)
	case *syntax.CaseClause:
		if !noExpansion(x) {
			// `case $((x)) in` and patterns with expansions are evaluated:
			// report the header, never literal
			ws := []word{raw("case"), w.word(x.Word), raw("in")}
			for _, it := range x.Items {
				for _, p := range it.Patterns {
					ws = append(ws, w.word(p))
				}
			}
			if allLiteral(ws) {
				ws[1] = evaluated(ws[1])
			}
			w.add(c, ws, nil, nil, true, nil, c.redirs)
		}
		w.subs(x.Word)
		for _, it := range x.Items {
			for _, p := range it.Patterns {
				w.subs(p)
			}
			w.stmts(it.Stmts, c)
		}
	case *syntax.FuncDecl:
		w.risk("function definition")
		if x.Name != nil && x.Body != nil && callsSelfAsync(x.Body, x.Name.Value, false) {
			w.risk(riskForkBomb + ": function " + x.Name.Value + " calls itself in a pipeline or in the background")
		}
		if x.Body != nil {
			w.stmt(x.Body, c)
		}
	case *syntax.ArithmCmd:
		e := w.source(x.X)
		w.add(c, []word{raw("(("), {val: e, src: e, lit: noExpansion(x) && numericExpr(e), code: true}, raw("))")}, nil, nil, true, nil, c.redirs)
		w.subsCtx(x, c.piped)
	case *syntax.TestClause:
		ws := append(w.testWords(x.X, []word{raw("[[")}), raw("]]"))
		w.add(c, ws, nil, nil, true, nil, c.redirs)
		w.subsCtx(x, c.piped)
	case *syntax.LetClause:
		ws := []word{raw("let")}
		for _, e := range x.Exprs {
			s := w.source(e)
			ws = append(ws, word{val: s, src: s, lit: noExpansion(e) && numericExpr(strings.NewReplacer(`"`, "", "'", "").Replace(s)), code: true})
		}
		w.add(c, ws, nil, nil, true, nil, c.redirs)
		w.subsCtx(x, c.piped)
	case *syntax.DeclClause:
		ws := []word{raw(x.Variant.Value)}
		for _, a := range x.Args {
			ws = append(ws, w.assignWord(a))
		}
		w.add(c, ws, nil, nil, true, nil, c.redirs)
		w.subsCtx(x, c.piped)
	case *syntax.TimeClause:
		c.wrappers = concat(c.wrappers, []string{"time"})
		if x.Stmt == nil {
			w.add(ctx{origin: c.origin, piped: c.piped}, []word{raw("time")}, nil, nil, true, nil, c.redirs)
		} else {
			w.stmt(x.Stmt, c)
		}
	case *syntax.CoprocClause:
		if x.Name != nil {
			if !noExpansion(x.Name) {
				w.add(c, []word{raw("coproc"), w.word(x.Name)}, nil, nil, true, nil, c.redirs)
			}
			w.subs(x.Name)
		}
		w.stmt(x.Stmt, c)
	default:
		w.risk("unsupported shell construct")
	}
}

// raw is a literal word written as is.
func raw(s string) word { return word{val: s, src: s, lit: true, approx: s} }

// call handles a simple command: assignments, then words.
func (w *walker) call(x *syntax.CallExpr, c ctx) {
	assigns := make([]string, 0, len(x.Assigns))
	assignsLit := true
	for _, a := range x.Assigns {
		aw := w.assignWord(a)
		assigns = append(assigns, aw.src)
		assignsLit = assignsLit && aw.lit
	}
	if len(assigns) == 0 {
		assigns = nil
	}
	if len(x.Args) == 0 {
		w.assignRisks(assigns)
		w.out.Commands = append(w.out.Commands, Command{Assigns: assigns, Literal: assignsLit && redirectsLiteral(c.redirs),
			Origin: c.origin, Wrappers: concat(c.wrappers, nil), Redirects: copyRedirects(c.redirs), PipedInput: c.piped})
	} else {
		args := make([]word, len(x.Args))
		for i, a := range x.Args {
			args[i] = w.word(a)
		}
		w.simple(c, args, assigns, assignsLit)
	}
	for _, a := range x.Assigns {
		w.subsCtx(a, c.piped)
	}
	for _, a := range x.Args {
		w.subsCtx(a, c.piped)
	}
}

// simple adds the command of args, looking through wrappers, then the
// commands it runs itself.
func (w *walker) simple(c ctx, args []word, assigns []string, assignsLit bool) {
	u := unwrap(args, wrappers)
	w.add(c, u.words, args, concat(assigns, u.assigns), assignsLit, u.wrappers, c.redirs)
	w.inner(u.words)
}

// inner adds the commands run by a command given as arguments: sh -c
// strings, eval, xargs and find -exec, also behind sudo and the like.
// A non-literal sh -c or eval string is a risk, and is still parsed with
// its parameter expansions left as written (`bash -c "rm -rf $HOME"`
// gives `rm -rf $HOME`), so that rules and HardDeny see the likely
// commands; not when it holds a command substitution, whose output
// cannot be guessed.
func (w *walker) inner(ws []word) {
	ws = unwrapAll(ws)
	if len(ws) == 0 {
		return
	}
	name := wrapperName(ws[0])
	if name == "busybox" && len(ws) > 1 && shells[wrapperName(ws[1])] {
		name, ws = wrapperName(ws[1]), ws[1:]
	}
	switch {
	case shells[name]:
		if s, found := shellString(ws[1:]); found {
			if !s.lit {
				w.risk("sh -c of a non-literal string")
			}
			if s.lit || s.approx != "" {
				w.nested(s.approx, "sh -c")
			}
		}
	case name == "eval":
		if len(ws) == 1 {
			return
		}
		if !allLiteral(ws[1:]) {
			w.risk("eval of a non-literal string")
		}
		args := make([]string, len(ws)-1)
		for i, a := range ws[1:] {
			if !a.lit && a.approx == "" {
				return
			}
			args[i] = a.approx
		}
		w.nested(strings.Join(args, " "), "eval")
	case name == "xargs":
		if cmd, ok := xargsCommand(ws[1:]); ok {
			w.run(cmd, "xargs")
		} else {
			w.risk("xargs command not identified")
		}
	case name == "find":
		for _, cmd := range findExecs(ws[1:]) {
			w.run(cmd, "find -exec")
		}
	}
}

// run adds a command that another one runs with the given words.
func (w *walker) run(ws []word, origin string) {
	if w.depth >= maxDepth {
		w.risk("nesting too deep")
		return
	}
	sub := &walker{src: w.src, out: w.out, depth: w.depth + 1}
	sub.simple(ctx{origin: origin}, ws, nil, true) // xargs runs commands with stdin from /dev/null
}

// subs adds the commands of every command and process substitution in n.
func (w *walker) subs(n syntax.Node) { w.subsCtx(n, false) }

// subsCtx is subs for a node whose command substitutions inherit a piped
// stdin (piped): `ls | echo $(sh)` feeds the pipe to sh.
func (w *walker) subsCtx(n syntax.Node, piped bool) {
	syntax.Walk(n, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst:
			w.stmts(x.Stmts, ctx{origin: "substitution", piped: piped})
			return false
		case *syntax.ProcSubst:
			w.stmts(x.Stmts, ctx{origin: "process-substitution"})
			return false
		}
		return true
	})
}

// pipe walks a pipeline X | Y: every command of Y (and of its command
// substitutions) reads the pipe.
func (w *walker) pipe(x *syntax.BinaryCmd, c ctx) {
	begin := len(w.out.Commands)
	w.stmt(x.X, c)
	start := len(w.out.Commands)
	yc := c
	yc.piped = true
	w.stmt(x.Y, yc)
	w.downloadExec(begin, start)
}

// assignWord renders an assignment (or a declaration argument) as a word:
// NAME=value with the value's literal value when literal.
func (w *walker) assignWord(a *syntax.Assign) word {
	src := w.source(a)
	if a.Naked {
		if a.Name == nil {
			if a.Value == nil {
				return word{val: src, src: src}
			}
			return w.word(a.Value)
		}
		return word{val: a.Name.Value, src: src, lit: a.Index == nil}
	}
	if a.Name == nil || a.Index != nil || a.Array != nil {
		return word{val: src, src: src}
	}
	op := "="
	if a.Append {
		op = "+="
	}
	if a.Value == nil {
		return word{val: a.Name.Value + op, src: src, lit: true}
	}
	if v, ok := literalWord(a.Value); ok {
		return word{val: a.Name.Value + op + v, src: src, lit: true}
	}
	return word{val: src, src: src}
}

// testWords flattens a [[ ]] expression into words and operators.
func (w *walker) testWords(e syntax.TestExpr, out []word) []word {
	switch x := e.(type) {
	case *syntax.Word:
		return append(out, w.word(x))
	case *syntax.UnaryTest:
		op := x.Op.String()
		n := len(out) + 1
		out = w.testWords(x.X, append(out, raw(op)))
		if nameOps[op] && len(out) == n+1 && subscriptish(out[n].val) {
			out[n] = evaluated(out[n]) // -v 'a[$(cmd)]' evaluates the subscript
		}
		return out
	case *syntax.BinaryTest:
		op := x.Op.String()
		l := len(out)
		out = w.testWords(x.X, out)
		if arithOps[op] && len(out) == l+1 && !isDecimal(out[l].val) {
			out[l] = evaluated(out[l]) // arithmetic: identifiers are evaluated
		}
		r := len(out) + 1
		out = w.testWords(x.Y, append(out, raw(op)))
		if arithOps[op] && len(out) == r+1 && !isDecimal(out[r].val) {
			out[r] = evaluated(out[r])
		}
		return out
	case *syntax.ParenTest:
		return append(w.testWords(x.X, append(out, raw("("))), raw(")"))
	}
	return out
}

// callsSelfAsync reports whether s calls name in a pipeline or in the
// background, looking only through pipelines and grouping: the shape of
// a fork bomb (`:(){ :|:& };:`), not of a recursion guarded by a
// condition (&&, ||, if, while, case).
func callsSelfAsync(s *syntax.Stmt, name string, async bool) bool {
	if s == nil {
		return false
	}
	async = async || s.Background || s.Coprocess || s.Disown
	switch x := s.Cmd.(type) {
	case *syntax.CallExpr:
		return async && len(x.Args) > 0 && x.Args[0].Lit() == name
	case *syntax.BinaryCmd:
		if x.Op != syntax.Pipe && x.Op != syntax.PipeAll {
			return false // && and || guard the recursion
		}
		return callsSelfAsync(x.X, name, true) || callsSelfAsync(x.Y, name, true)
	case *syntax.Block:
		return anyCallsSelf(x.Stmts, name, async)
	case *syntax.Subshell:
		return anyCallsSelf(x.Stmts, name, async)
	}
	return false
}

func anyCallsSelf(ss []*syntax.Stmt, name string, async bool) bool {
	for _, s := range ss {
		if callsSelfAsync(s, name, async) {
			return true
		}
	}
	return false
}
