package skill

import (
	"strconv"
	"strings"
)

// SplitArgs splits the text after /NAME into words as a shell would, without
// running anything: white space separates, '...' and "..." group (a backslash
// escapes the next character outside single quotes), quotes are dropped.
func SplitArgs(s string) []string {
	var out []string
	var cur strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote == '\'':
			if ch == '\'' {
				quote = 0
			} else {
				cur.WriteByte(ch)
			}
		case ch == '\\' && i+1 < len(s) && quote != '\'':
			i++
			cur.WriteByte(s[i])
			in = true
		case quote == '"':
			if ch == '"' {
				quote = 0
			} else {
				cur.WriteByte(ch)
			}
		case ch == '\'' || ch == '"':
			quote, in = ch, true
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(ch)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// placeholders are the values of one expansion's substitutions.
type placeholders struct {
	args    string
	list    []string
	names   []string // `arguments:` names, $name -> list[i]
	dir     string   // ${CLAUDE_SKILL_DIR}
	context *string  // $CONTEXT (a built-in's Gather), nil: not a placeholder
}

// match reports the placeholder at s[i] ('$'): its value, its length, and
// whether it stands for the arguments (for the "no placeholder: append"
// rule). The forms, as Claude Code's (code.claude.com/docs/en/skills, "Pass
// arguments to skills"): $ARGUMENTS (all of them, as typed), $ARGUMENTS[N]
// (the Nth word, counted from 0), $N (shorthand for $ARGUMENTS[N]: $0 is the
// first word, any number of digits not followed by a letter, digit or '_'),
// $name (a name of `arguments:`), ${CLAUDE_SKILL_DIR}; built-ins add
// $CONTEXT. A word past the last one typed is empty.
func (p *placeholders) match(s string, i int) (val string, n int, isArg, ok bool) {
	rest := s[i+1:]
	word := func(k int) string {
		if k >= 0 && k < len(p.list) {
			return p.list[k]
		}
		return ""
	}
	switch {
	case strings.HasPrefix(rest, "ARGUMENTS["):
		end := strings.IndexByte(rest, ']')
		if k, err := strconv.Atoi(rest[len("ARGUMENTS["):max(end, len("ARGUMENTS["))]); end > 0 && err == nil {
			return word(k), end + 2, true, true
		}
	case strings.HasPrefix(rest, "ARGUMENTS") && !identByte(rest, len("ARGUMENTS")):
		return p.args, 1 + len("ARGUMENTS"), true, true
	case digitAt(rest, 0):
		j := 0
		for digitAt(rest, j) {
			j++
		}
		if identByte(rest, j) {
			break
		}
		k, err := strconv.Atoi(rest[:j])
		if err != nil { // more digits than an int holds: no such word
			k = -1
		}
		return word(k), 1 + j, true, true
	case strings.HasPrefix(rest, "{CLAUDE_SKILL_DIR}"):
		return p.dir, 1 + len("{CLAUDE_SKILL_DIR}"), false, true
	case p.context != nil && strings.HasPrefix(rest, "CONTEXT") && !identByte(rest, len("CONTEXT")):
		return *p.context, 1 + len("CONTEXT"), false, true
	}
	j := 0
	for j < len(rest) && identByte(rest, j) {
		j++
	}
	for k, name := range p.names {
		if j > 0 && rest[:j] == name {
			return word(k), 1 + j, true, true
		}
	}
	return "", 0, false, false
}

func identByte(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	c := s[i]
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func digitAt(s string, i int) bool { return i < len(s) && s[i] >= '0' && s[i] <= '9' }

// substText substitutes the placeholders of a text part: values as they are.
func (p *placeholders) substText(s string, used *bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '$' {
			if v, n, isArg, ok := p.match(s, i); ok {
				b.WriteString(v)
				*used = *used || isArg
				i += n - 1
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// frame is one level of shell quoting while substSh walks a command.
type frame struct {
	// mode: 'u' unquoted, 's' in '...', 'd' in "...", 'p' in ${...}, 'a' in
	// $((...)).
	mode   byte
	parens int // open '(' within an unquoted frame (to find the ')' of $( )
}

// substSh substitutes the placeholders of a !`command`: every value becomes
// one single-quoted shell word at the place it lands — unquoted it is
// inserted quoted, inside "..." or '...' the quotes are closed around it and
// reopened — so no value is ever read as shell syntax, at any depth of $( ).
// A value holding a line break or another control character is refused
// (ok false): in a comment it could end the comment; so is a placeholder
// inside ${...} or $((...)), where quotes do not make a word data. What the
// template itself does with a word (eval, sh -c, arithmetic in [[ -eq ]]) is
// the template's: the command still goes through the permission engine.
func (p *placeholders) substSh(cmd string, used *bool) (string, bool) {
	var b strings.Builder
	stack := []frame{{mode: 'u'}}
	inExpansion := func() bool {
		for _, f := range stack {
			if f.mode == 'p' || f.mode == 'a' {
				return true
			}
		}
		return false
	}
	for i := 0; i < len(cmd); i++ {
		top := &stack[len(stack)-1]
		ch := cmd[i]
		if ch == '$' {
			if v, n, isArg, ok := p.match(cmd, i); ok {
				if hasControl(v) || inExpansion() {
					return "", false
				}
				*used = *used || isArg
				q := shQuote(v)
				switch top.mode {
				case 'd':
					q = `"` + q + `"`
				case 's':
					q = `'` + q + `'`
				}
				b.WriteString(q)
				i += n - 1
				continue
			}
		}
		b.WriteByte(ch)
		switch top.mode {
		case 's':
			if ch == '\'' {
				stack = stack[:len(stack)-1]
			}
		case 'd':
			switch {
			case ch == '\\' && i+1 < len(cmd):
				i++
				b.WriteByte(cmd[i])
			case ch == '"':
				stack = stack[:len(stack)-1]
			case ch == '$' && i+1 < len(cmd) && cmd[i+1] == '(':
				i++
				b.WriteByte('(')
				stack = append(stack, opened(cmd, i))
			case ch == '$' && i+1 < len(cmd) && cmd[i+1] == '{':
				i++
				b.WriteByte('{')
				stack = append(stack, frame{mode: 'p'})
			}
		case 'p', 'a':
			switch {
			case ch == '\\' && i+1 < len(cmd):
				i++
				b.WriteByte(cmd[i])
			case ch == '{' || ch == '(':
				top.parens++
			case (ch == '}' || ch == ')') && top.parens > 0:
				top.parens--
			case ch == '}' && top.mode == 'p' || ch == ')' && top.mode == 'a':
				stack = stack[:len(stack)-1]
			}
		default:
			switch {
			case ch == '\\' && i+1 < len(cmd):
				i++
				b.WriteByte(cmd[i])
			case ch == '\'':
				stack = append(stack, frame{mode: 's'})
			case ch == '"':
				stack = append(stack, frame{mode: 'd'})
			case ch == '$' && i+1 < len(cmd) && cmd[i+1] == '(':
				i++
				b.WriteByte('(')
				stack = append(stack, opened(cmd, i))
			case ch == '$' && i+1 < len(cmd) && cmd[i+1] == '{':
				i++
				b.WriteByte('{')
				stack = append(stack, frame{mode: 'p'})
			case ch == '(':
				top.parens++
			case ch == ')' && top.parens > 0:
				top.parens--
			case ch == ')' && len(stack) > 1:
				stack = stack[:len(stack)-1]
			}
		}
	}
	return b.String(), true
}

// opened is the frame cmd[i] ('(' of "$(") opens: arithmetic for "$((",
// whose closing "))" the 'a' frame counts as one '(' more.
func opened(cmd string, i int) frame {
	if i+1 < len(cmd) && cmd[i+1] == '(' {
		return frame{mode: 'a'}
	}
	return frame{mode: 'u'}
}

// shQuote is s as one single-quoted shell word.
func shQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// hasControl reports a control character (line breaks, NUL, escapes).
func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return true
		}
	}
	return false
}
