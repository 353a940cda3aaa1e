package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// redirect converts one redirection. Writes are the operators that open
// Target for writing (> >> >| <> &> &>> and zsh's clobber forms); a
// duplication (>&N, >&-, N>&M-) is not, but `>&file` with a file name is
// bash for &>file and is. A target that is only a process substitution
// (`> >(tee log)`) writes to a pipe, not a file. For heredocs Target is ""
// and Literal reports that the body has no expansion.
func (w *walker) redirect(r *syntax.Redirect) Redirect {
	op := r.Op.String()
	if r.N != nil {
		op = r.N.Value + op
	}
	out := Redirect{Op: op}
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		out.Literal = r.Hdoc == nil || noExpansion(r.Hdoc)
		return out
	}
	if r.Word == nil {
		return out
	}
	t := w.word(r.Word)
	out.Target, out.Literal = t.val, t.lit
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrInOut, syntax.RdrClob, syntax.AppClob,
		syntax.RdrAll, syntax.RdrAllClob, syntax.AppAll, syntax.AppAllClob:
		out.Write = !isProcSubst(r.Word)
	case syntax.DplOut:
		out.Write = !isProcSubst(r.Word) && !isFdTarget(t)
	}
	return out
}

// isFdTarget reports whether a duplication target names a descriptor
// (2, -, 3-) rather than a file.
func isFdTarget(t word) bool {
	if !t.lit {
		return false
	}
	v := strings.TrimSuffix(t.val, "-")
	return v == "" || isNumber(v) && !strings.ContainsAny(v, "+-")
}

func isProcSubst(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	_, ok := w.Parts[0].(*syntax.ProcSubst)
	return ok
}

// hasNoExpansion reports whether n contains no parameter, command,
// arithmetic or process substitution.
func noExpansion(n syntax.Node) bool {
	clean := true
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp:
			clean = false
		case *syntax.ParamExp:
			if n.Dollar.IsValid() {
				clean = false
			}
		}
		return clean
	})
	return clean
}
