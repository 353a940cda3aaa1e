package checkpoint

import (
	"fmt"
	"strings"
)

// quoteName is a path as git writes it in a diff header (git's quote_c_style,
// core.quotePath on): as it is when it holds no byte that needs quoting,
// else in double quotes with \a \b \t \n \v \f \r \" \\ and every other
// control byte, DEL and byte from 0x80 as a three-digit octal escape. A name
// holding a newline or an escape sequence so stays one line of plain text,
// and `git apply` reads the quoted name back byte for byte.
func quoteName(s string) string {
	if !needsQuote(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\v':
			b.WriteString(`\v`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		default:
			if c < 0x20 || c >= 0x7f {
				fmt.Fprintf(&b, `\%03o`, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// needsQuote reports whether git quotes s: a control byte, DEL, a byte from
// 0x80, a double quote or a backslash.
func needsQuote(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return true
		}
	}
	return false
}

// diffLabel is prefix+path quoted as one name, as git quotes "a/P".
func diffLabel(prefix, path string) string { return quoteName(prefix + path) }
