package tools

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// safeRunMin is the length from which a run of one escaped byte is written
// once with its count ("\x00<×512>") instead of byte by byte, so that a
// binary's runs of NULs stay short and readable.
const safeRunMin = 4

// SafeOutput makes a command's output fit for the transcript, as a terminal
// would show it to a person: ANSI escape sequences (CSI colours and cursor
// moves, OSC titles and hyperlinks, DCS/SOS/PM/APC strings, two-byte ESC
// sequences) are removed; "\r\n" becomes "\n"; every other C0 control byte
// but tab and newline, DEL and the C1 controls (U+0080-U+009F) are escaped
// visibly as \xNN (\u00NN for C1), a run of safeRunMin or more of one such
// byte written once as "\xNN<×COUNT>"; each maximal run of invalid UTF-8
// becomes one U+FFFD; every invisible format character (invisibleRune: the
// bidi embeddings, overrides and isolates U+202A-U+202E and U+2066-U+2069,
// the directional marks, zero-width spaces, the BOM, tag characters, line and
// paragraph separators), which could hide or reorder text before a person's
// eyes, is shown as "⟦U+202E⟧" as the web panel shows it (ui/web/static/dom.js),
// a run of one written once with its count. The result is valid UTF-8 with
// no control byte but tab and newline and no invisible format character, and
// at most six times as long as s (a two-byte U+00AD becomes twelve bytes).
//
// note is "" when nothing but ANSI sequences and CRLF line ends changed;
// otherwise one line in brackets saying what was changed (counts of escaped
// control bytes, marked format characters and replaced invalid sequences, and
// whether ANSI sequences were removed too), with a hint when the output looks
// binary.
func SafeOutput(s string) (out string, note string) {
	if isPlainText(s) {
		return s, ""
	}
	var b strings.Builder
	b.Grow(len(s))
	var escaped, invalid, ansi, marked int
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			if n := ansiSequenceLen(s[i:]); n > 0 {
				ansi++
				i += n
				continue
			}
		case c == '\r' && i+1 < len(s) && s[i+1] == '\n':
			i++
			continue
		case c == '\t' || c == '\n' || (c >= 0x20 && c < 0x7f):
			b.WriteByte(c)
			i++
			continue
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size <= 1 {
				for i < len(s) && s[i] >= utf8.RuneSelf {
					if r, size := utf8.DecodeRuneInString(s[i:]); r != utf8.RuneError || size > 1 {
						break
					}
					i++
				}
				b.WriteRune(utf8.RuneError)
				invalid++
				continue
			}
			if r >= 0x80 && r <= 0x9f {
				n := runOf(s[i:], s[i:i+size])
				escaped += n
				writeEscape(&b, fmt.Sprintf(`\u%04x`, r), n)
				i += n * size
				continue
			}
			if invisibleRune(r) {
				n := runOf(s[i:], s[i:i+size])
				marked += n
				writeEscape(&b, fmt.Sprintf("⟦U+%04X⟧", r), n)
				i += n * size
				continue
			}
			b.WriteString(s[i : i+size])
			i += size
			continue
		}
		// A C0 control byte, DEL, or an ESC that starts no known sequence.
		n := runOf(s[i:], s[i:i+1])
		escaped += n
		writeEscape(&b, fmt.Sprintf(`\x%02x`, c), n)
		i += n
	}
	out = b.String()
	if escaped == 0 && invalid == 0 && marked == 0 {
		return out, ""
	}
	var parts []string
	if escaped > 0 {
		parts = append(parts, fmt.Sprintf("%d control %s shown as \\xNN", escaped, plural(escaped, "byte", "bytes")))
	}
	if marked > 0 {
		parts = append(parts, fmt.Sprintf("%d invisible format %s shown as ⟦U+XXXX⟧", marked, plural(marked, "character", "characters")))
	}
	if invalid > 0 {
		parts = append(parts, fmt.Sprintf("%d invalid UTF-8 %s replaced with U+FFFD", invalid, plural(invalid, "sequence", "sequences")))
	}
	if ansi > 0 {
		parts = append(parts, "ANSI escape sequences removed")
	}
	note = "[output made safe for the transcript: " + strings.Join(parts, ", ")
	if escaped+invalid > len(s)/20 {
		note += "; it looks binary: use xxd, od or file to inspect it"
	}
	return out, note + "]"
}

// isPlainText reports whether s needs no change: printable ASCII, tab and
// newline only, or valid UTF-8 without control or invisible format characters.
func isPlainText(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return utf8.ValidString(s[i:]) && !strings.ContainsFunc(s[i:], func(r rune) bool {
				return r < 0x20 && r != '\t' && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f || invisibleRune(r)
			})
		}
		if c < 0x20 && c != '\t' && c != '\n' || c == 0x7f {
			return false
		}
	}
	return true
}

// invisibleRune reports a character a terminal shows as nothing or uses to
// reorder the text around it, so that output could read differently from
// what it is: a Unicode format character (category Cf: the bidi marks,
// embeddings, overrides and isolates the web panel marks, zero-width space,
// word joiner, BOM, soft hyphen, the tag characters U+E0000-U+E007F), the
// line and paragraph separators U+2028 and U+2029. The zero-width joiner and
// non-joiner (U+200D, U+200C) are kept: emoji sequences and Persian or Indic
// text need them and they hide nothing.
func invisibleRune(r rune) bool {
	if r < 0xad {
		return false
	}
	if r == 0x200c || r == 0x200d {
		return false
	}
	return r == 0x2028 || r == 0x2029 || unicode.Is(unicode.Cf, r)
}

// runOf counts how many times unit repeats at the start of s (at least 1).
func runOf(s, unit string) int {
	n := 0
	for strings.HasPrefix(s, unit) {
		s = s[len(unit):]
		n++
	}
	return max(n, 1)
}

// writeEscape writes esc n times, or once with its count when n reaches
// safeRunMin.
func writeEscape(b *strings.Builder, esc string, n int) {
	if n >= safeRunMin {
		fmt.Fprintf(b, "%s<×%d>", esc, n)
		return
	}
	for range n {
		b.WriteString(esc)
	}
}

// ansiSequenceLen is the length in bytes of the ANSI escape sequence at the
// start of s (s[0] is ESC), or 0 when none is there (a lone or cut ESC):
// CSI (ESC [ params intermediates final), OSC and the string controls DCS,
// SOS, PM, APC (ended by BEL or ST; an unterminated one is no sequence), and the two- or
// three-byte ESC sequences (ESC intermediates final).
func ansiSequenceLen(s string) int {
	if len(s) < 2 {
		return 0
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			c := s[i]
			switch {
			case c >= 0x40 && c <= 0x7e:
				return i + 1
			case c >= 0x20 && c <= 0x3f:
			default:
				return 0
			}
		}
		return 0
	case ']', 'P', 'X', '^', '_':
		for i := 2; i < len(s); i++ {
			switch {
			case s[i] == 0x07:
				return i + 1
			case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
				return i + 2
			}
		}
		return 0 // unterminated: escaped, so that nothing after it is lost
	}
	i := 1
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		return i + 1
	}
	return 0
}
