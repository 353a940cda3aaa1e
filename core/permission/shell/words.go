package shell

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// word is one shell word as the analysis sees it.
type word struct {
	val    string // literal value when lit, else the source text
	src    string // source text as written
	lit    bool   // the word expands to exactly val, with no expansion
	approx string // quotes removed and escapes resolved, expansions left as written
	code   bool   // bash evaluates the word's text as code (arithmetic, a subscript; see evaluated.go)
}

// literalWord computes the value of w when it is literal. A word is literal
// when it is made of plain characters, escapes and quoted strings only: no
// parameter, command, arithmetic or process substitution, no unquoted glob
// (* ? [..]), no brace expansion ({a,b} {1..3}), no leading tilde and no
// extended glob. Quotes are removed and escapes resolved, including the
// ANSI-C escapes of $'...'.
func literalWord(w *syntax.Word) (string, bool) {
	var val, shape strings.Builder // shape: unquoted chars as is, quoted or escaped ones as 'x'
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			unescapeUnquoted(p.Value, &val, &shape)
		case *syntax.SglQuoted:
			if p.Dollar {
				val.WriteString(ansiC(p.Value))
			} else {
				val.WriteString(p.Value)
			}
			shape.WriteByte('x')
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				val.WriteString(unescapeDouble(l.Value))
			}
			shape.WriteByte('x')
		default:
			return "", false
		}
	}
	if expandsUnquoted(shape.String()) {
		return "", false
	}
	return val.String(), true
}

// approxWord is the value of w with its parameter expansions left as
// written: what a nested shell would likely be given when the word is not
// literal. It is "" when w has a command or process substitution, whose
// output cannot be guessed.
func (w *walker) approxWord(wd *syntax.Word) string {
	if !noSubstitution(wd) {
		return ""
	}
	var b strings.Builder
	for _, part := range wd.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			var shape strings.Builder
			unescapeUnquoted(p.Value, &b, &shape)
		case *syntax.SglQuoted:
			if p.Dollar {
				b.WriteString(ansiC(p.Value))
			} else {
				b.WriteString(p.Value)
			}
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(unescapeDouble(l.Value))
				} else {
					b.WriteString(w.source(q))
				}
			}
		default:
			b.WriteString(w.source(part))
		}
	}
	return b.String()
}

func noSubstitution(n syntax.Node) bool {
	clean := true
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			clean = false
		}
		return clean
	})
	return clean
}

// unescapeUnquoted resolves backslash escapes of an unquoted literal,
// writing the value to val and its shape (escaped chars as 'x') to shape.
func unescapeUnquoted(s string, val, shape *strings.Builder) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			val.WriteByte(c)
			shape.WriteByte(c)
			continue
		}
		i++
		if s[i] == '\n' { // line continuation
			continue
		}
		val.WriteByte(s[i])
		shape.WriteByte('x')
	}
}

// unescapeDouble resolves the escapes that are special inside double
// quotes: \$ \` \" \\ and backslash-newline; other backslashes stay.
func unescapeDouble(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '$', '`', '"', '\\':
				b.WriteByte(s[i+1])
				i++
				continue
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// expandsUnquoted reports whether the unquoted shape of a word would be
// changed by the shell: a leading tilde, a glob or a brace expansion.
func expandsUnquoted(shape string) bool {
	if strings.HasPrefix(shape, "~") || strings.ContainsAny(shape, "*?") {
		return true
	}
	if i := strings.IndexByte(shape, '['); i >= 0 && strings.IndexByte(shape[i+1:], ']') >= 0 {
		return true
	}
	return hasBraceExpansion(shape)
}

// hasBraceExpansion reports whether s holds {a,b} or {x..y}; "{}" (as used
// by find and xargs) and lone braces are literal.
func hasBraceExpansion(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '{' {
			continue
		}
		end := strings.IndexByte(s[i+1:], '}')
		if end < 0 {
			return false
		}
		inner := s[i+1 : i+1+end]
		if strings.Contains(inner, ",") || strings.Contains(inner, "..") {
			return true
		}
	}
	return false
}

// ansiC decodes the escapes of a $'...' string.
func ansiC(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(c)
		case 'c':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i] & 0x1f)
			} else {
				b.WriteString(`\c`)
			}
		case 'x', 'u', 'U':
			max := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			n := countDigits(s[i+1:], max, 16)
			if n == 0 {
				b.WriteByte('\\')
				b.WriteByte(c)
				continue
			}
			v, _ := strconv.ParseUint(s[i+1:i+1+n], 16, 32)
			i += n
			if c == 'x' {
				b.WriteByte(byte(v))
			} else if utf8.ValidRune(rune(v)) {
				b.WriteRune(rune(v))
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n := countDigits(s[i:], 3, 8)
			v, _ := strconv.ParseUint(s[i:i+n], 8, 16)
			i += n - 1
			b.WriteByte(byte(v))
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String()
}

// countDigits counts the leading digits of s in base (8 or 16), at most max.
func countDigits(s string, max, base int) int {
	n := 0
	for n < len(s) && n < max {
		c := s[n]
		ok := c >= '0' && c <= '7' ||
			base == 16 && (c >= '8' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')
		if !ok {
			break
		}
		n++
	}
	return n
}

// reserved words that must be quoted to be a command name.
var reserved = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "fi": true, "do": true,
	"done": true, "case": true, "esac": true, "while": true, "until": true,
	"for": true, "in": true, "function": true, "select": true, "time": true,
	"coproc": true, "{": true, "}": true, "!": true, "[[": true, "]]": true,
}

// quoteWord renders a literal value the way a user would type it: as is
// when the shell would read it back unchanged, otherwise quoted. first
// marks the command-name position, where reserved words and '=' matter.
func quoteWord(s string, first bool) string {
	needs := s == "" || strings.ContainsAny(s, " \t\n\r;&|<>()$`\\\"'*?[") ||
		s[0] == '#' || s[0] == '~' || hasBraceExpansion(s)
	if first && (reserved[s] || strings.Contains(s, "=")) {
		needs = true
	}
	for _, r := range s {
		if r == utf8.RuneError || r < 0x20 || r == 0x7f {
			needs = true
		}
	}
	if !needs {
		return s
	}
	q, err := syntax.Quote(s, syntax.LangBash)
	if err != nil {
		return strconv.Quote(s)
	}
	return q
}

// joinWords renders words as canonical command text: a word written
// plainly stays as written, a literal word written with quotes or escapes
// is shown by its value, quoted only if needed, and a non-literal word by
// its source.
func joinWords(ws []word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		if w.lit && w.src != w.val {
			parts[i] = quoteWord(w.val, i == 0)
		} else {
			parts[i] = w.src
		}
	}
	return strings.Join(parts, " ")
}

// values returns the Words representation of ws.
func values(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.val
	}
	return out
}

// allLiteral reports whether every word of ws is literal.
func allLiteral(ws []word) bool {
	for _, w := range ws {
		if !w.lit {
			return false
		}
	}
	return true
}

// looksLiteral guesses whether a Words entry of a non-literal Command is a
// literal value rather than source text with expansions; used where only
// strings are available (HardDeny, ReadOnly on hand-built Commands).
func looksLiteral(s string) bool {
	return !strings.ContainsAny(s, "$`*?[{~'\"\\") && !strings.HasPrefix(s, "<(") && !strings.HasPrefix(s, ">(")
}

// stringWords turns a Command's Words back into words; literal says all of
// them are literal values, otherwise each is judged by looksLiteral.
func stringWords(ss []string, literal bool) []word {
	out := make([]word, len(ss))
	for i, s := range ss {
		out[i] = word{val: s, src: s, lit: literal || looksLiteral(s), approx: s}
	}
	return out
}
