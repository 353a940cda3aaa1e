package markdown

import (
	"strings"

	"github.com/gdamore/tcell/v2"
)

// inline parses markdown inline syntax in s and appends the result to out
// with base as the surrounding style. Supported: backslash escapes, `code`,
// **strong** / __strong__, *emphasis* / _emphasis_, ***both***,
// ~~strikethrough~~, [links](url), ![images](url) and <autolinks>.
// Unmatched delimiters stay literal text.
func (p *palette) inline(out *styled, s string, base tcell.Style) {
	lit := 0 // start of pending literal text
	flush := func(i int) {
		if i > lit {
			out.add(s[lit:i], base)
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch c {
		case '\\':
			if i+1 < len(s) && isASCIIPunct(s[i+1]) {
				flush(i)
				out.add(s[i+1:i+2], base)
				i += 2
				lit = i
				continue
			}
		case '`':
			n := runLen(s, i, '`')
			if j := findBackticks(s, i+n, n); j >= 0 {
				flush(i)
				code := s[i+n : j]
				if len(code) >= 2 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.Trim(code, " ") != "" {
					code = code[1 : len(code)-1]
				}
				if p.theme.NoColor {
					out.add(s[i:i+n]+code+s[j:j+n], base)
				} else {
					out.add(code, p.code)
				}
				i = j + n
				lit = i
				continue
			}
			i += n
			continue
		case '*', '_', '~':
			if j, n, st, ok := p.emphasis(s, i, base); ok {
				flush(i)
				p.inline(out, s[i+n:j], st)
				i = j + n
				lit = i
				continue
			}
			i += runLen(s, i, c)
			continue
		case '!', '[':
			if end, text, url, ok := parseLink(s, i); ok {
				flush(i)
				if c == '!' {
					out.add("[image: "+text+"]", p.muted)
				} else {
					p.inline(out, text, p.link)
					if url != "" && url != text && !strings.HasPrefix(url, "#") {
						out.add(" ("+url+")", p.muted)
					}
				}
				i = end
				lit = i
				continue
			}
		case '<':
			if j := strings.IndexByte(s[i:], '>'); j > 1 {
				u := s[i+1 : i+j]
				if (strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://")) && !strings.ContainsAny(u, " <") {
					flush(i)
					out.add(u, p.link)
					i += j + 1
					lit = i
					continue
				}
			}
		}
		i++
	}
	flush(len(s))
}

// emphasis recognises an emphasis span opening at s[i]: it returns the index
// of the closing delimiter run, the delimiter length and the inner style. The
// opening run must be followed by a non-space, the closing run must have the
// same length and follow a non-space. Unlike CommonMark, neither '*' nor
// '_' opens or closes inside a word: snake_case, 2*3*4 and a*b*c stay
// literal, which is what code-heavy model output means by them.
func (p *palette) emphasis(s string, i int, base tcell.Style) (closeAt, n int, st tcell.Style, ok bool) {
	c := s[i]
	n = runLen(s, i, c)
	switch {
	case c == '~' && n == 2:
		st = base.StrikeThrough(true)
	case c == '~' || n > 3:
		return 0, 0, st, false
	case n == 3:
		st = base.Bold(true).Italic(true)
	case n == 2:
		st = base.Bold(true)
	default:
		st = base.Italic(true)
	}
	if i+n >= len(s) || s[i+n] == ' ' {
		return 0, 0, st, false
	}
	if i > 0 && isWordByte(s[i-1]) {
		return 0, 0, st, false
	}
	for j := i + n + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
			continue
		case '`': // code spans bind tighter than emphasis
			m := runLen(s, j, '`')
			if k := findBackticks(s, j+m, m); k >= 0 {
				j = k + m - 1
			} else {
				j += m - 1
			}
			continue
		case c:
		default:
			continue
		}
		m := runLen(s, j, c)
		if m == n && s[j-1] != ' ' && !(j+n < len(s) && isWordByte(s[j+n])) {
			return j, n, st, true
		}
		j += m - 1
	}
	return 0, 0, st, false
}

// parseLink parses [text](url) or ![alt](url) at s[i].
func parseLink(s string, i int) (end int, text, url string, ok bool) {
	j := i
	if s[j] == '!' {
		j++
		if j >= len(s) || s[j] != '[' {
			return 0, "", "", false
		}
	}
	depth := 0
	k := j
	for ; k < len(s); k++ {
		switch s[k] {
		case '\\':
			k++
			continue
		case '[':
			depth++
		case ']':
			depth--
		}
		if depth == 0 {
			break
		}
	}
	if k >= len(s) || k+1 >= len(s) || s[k+1] != '(' {
		return 0, "", "", false
	}
	closeP := strings.IndexByte(s[k+2:], ')')
	if closeP < 0 {
		return 0, "", "", false
	}
	url = strings.TrimSpace(s[k+2 : k+2+closeP])
	if sp := strings.IndexAny(url, " \t"); sp >= 0 { // drop a "title"
		url = url[:sp]
	}
	url = strings.TrimSuffix(strings.TrimPrefix(url, "<"), ">")
	return k + 2 + closeP + 1, s[j+1 : k], url, true
}

// findBackticks returns the index of the next run of exactly n backticks at
// or after from, or -1.
func findBackticks(s string, from, n int) int {
	for j := from; j < len(s); {
		k := strings.IndexByte(s[j:], '`')
		if k < 0 {
			return -1
		}
		j += k
		m := runLen(s, j, '`')
		if m == n {
			return j
		}
		j += m
	}
	return -1
}

// runLen returns how many times c repeats starting at s[i].
func runLen(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}
