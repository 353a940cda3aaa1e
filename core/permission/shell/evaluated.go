package shell

import "strings"

// Bash evaluates some literal words as code: an arithmetic expression
// evaluates the value of every identifier in it as an expression again, and
// an array subscript is arithmetic, so `x='a[$(cmd)]'; (( x ))` runs cmd,
// and so do `[[ 1 -eq 'a[$(cmd)]' ]]`, `test -v 'a[$(cmd)]'`,
// `printf -v 'a[$(cmd)]' v`, `read 'a[$(cmd)]'`, `unset 'a[$(cmd)]'` and
// `declare 'a[$(cmd)]=1'`; after `declare -i y`, even `y=x` does. These
// words are not literal for the analysis (Command.Literal is false), even
// though their text has no expansion.
//
// The shapes, checked on the words after wrappers are looked through:
//
//   - (( expr )), for (( ... )) and let: the expressions must be only
//     digits, white space and operators, with no identifier at all;
//   - [[ ]]: both operands of -eq -ne -lt -le -gt -ge must be plain
//     decimal numbers; the operand of -v and -R must not hold [ $ or `;
//   - test and [: the operand of -v and -R, and the operands next to
//     -eq -ne -lt -le -gt -ge, must not hold [ $ or ` (test does not do
//     arithmetic, but -v evaluates a subscript);
//   - printf -v NAME; read, unset, mapfile, readarray, getopts, wait,
//     declare, typeset, local, export, readonly: no argument may hold [;
//   - declare, typeset, local, export, readonly with an -i (integer) or
//     -n (name reference) option: that option word is not literal, since
//     later assignments then evaluate their values.

// arithOps are the [[ ]] and test operators whose operands bash evaluates
// as arithmetic ([[ ]]) or compares as integers (test).
var arithOps = map[string]bool{"-eq": true, "-ne": true, "-lt": true, "-le": true, "-gt": true, "-ge": true}

// nameOps are the unary test operators whose operand is a variable name
// (a subscript in it is evaluated).
var nameOps = map[string]bool{"-v": true, "-R": true}

// numericExpr reports whether an arithmetic expression has no identifier,
// subscript or expansion: only digits, blanks and operator characters.
func numericExpr(s string) bool {
	for i := 0; i < len(s); i++ {
		if strings.IndexByte("0123456789 \t\n+-*/%<>=!&|^~?:(),;", s[i]) < 0 {
			return false
		}
	}
	return true
}

// isDecimal reports whether s is an optionally signed decimal number.
func isDecimal(s string) bool {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// subscriptish reports whether a name operand may make bash evaluate code.
func subscriptish(s string) bool { return strings.ContainsAny(s, "[$`") }

// evaluated returns the word w marked as not literal: bash evaluates it.
func evaluated(w word) word {
	w.lit = false
	w.val = w.src
	w.code = true
	return w
}

// codeText reports whether text bash evaluates as code holds what runs a
// command or expands a parameter there: $( , a backtick or ${.
func codeText(s string) bool {
	return strings.Contains(s, "$(") || strings.Contains(s, "`") || strings.Contains(s, "${")
}

// evaluatesCode reports whether one of ws is text bash evaluates as code
// (arithmetic, a subscript) that holds a command substitution or a
// parameter expansion: `printf -v 'a[$(cmd)]' x` runs cmd, though no
// word of it is a substitution the analysis sees.
func evaluatesCode(ws []word) bool {
	for _, w := range ws {
		if w.code && codeText(w.src) {
			return true
		}
	}
	return false
}

// declNames are the builtins that take variable names as arguments.
var declNames = map[string]bool{
	"read": true, "unset": true, "mapfile": true, "readarray": true, "getopts": true, "wait": true,
	"declare": true, "typeset": true, "local": true, "export": true, "readonly": true, "printf": true,
}

// markEvaluated marks the words of a simple command (after wrappers) that
// bash evaluates as code; see the package comment above.
func markEvaluated(ws []word) []word {
	if len(ws) == 0 || !ws[0].lit {
		return ws
	}
	name := ws[0].val
	var out []word
	mark := func(i int) {
		if out == nil {
			out = append([]word(nil), ws...)
		}
		out[i] = evaluated(out[i])
	}
	switch {
	case name == "test" || name == "[":
		for i := 1; i < len(ws); i++ {
			v := ws[i].val
			if !ws[i].lit {
				continue
			}
			if nameOps[v] && i+1 < len(ws) && subscriptish(ws[i+1].val) {
				mark(i + 1)
			}
			if arithOps[v] {
				if subscriptish(ws[i-1].val) {
					mark(i - 1)
				}
				if i+1 < len(ws) && subscriptish(ws[i+1].val) {
					mark(i + 1)
				}
			}
		}
	case name == "let":
		for i := 1; i < len(ws); i++ {
			if !numericExpr(strings.NewReplacer(`"`, "", "'", "").Replace(ws[i].val)) {
				mark(i)
			}
		}
	case declNames[name]:
		for i := 1; i < len(ws); i++ {
			v := ws[i].val
			switch {
			case strings.Contains(v, "["):
				if name != "printf" || i > 1 && ws[i-1].val == "-v" || strings.HasPrefix(v, "-v") {
					mark(i)
				}
			case name == "printf":
			case len(v) > 1 && v[0] == '-' && strings.ContainsAny(v[1:], "in") && isDeclare(name):
				mark(i)
			}
		}
	}
	if out == nil {
		return ws
	}
	return out
}

func isDeclare(name string) bool {
	switch name {
	case "declare", "typeset", "local", "export", "readonly":
		return true
	}
	return false
}
