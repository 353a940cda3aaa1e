// Package termtext makes text that pincer did not write (model text, tool output,
// command summaries, session titles, error messages quoting them) safe to print on
// a terminal: every human-readable output of pincer — the workbench's transcript
// and markdown, `pincer run`'s text output and notices, `pincer sessions`,
// `pincer audit`, `pincer doctor`, `pincer model` and the one-line errors of the
// command line — passes through Clean. What it removes cannot move the cursor,
// set a window or pane title, write the clipboard (OSC 52), ask the terminal a
// question whose answer is typed into the shell (CSI 6n, DA), or wrap a paste
// (ESC[200~); all printable text, wide and emoji included, is kept. The
// explicit bidirectional controls, which reorder what is shown so that it
// reads differently from what it is ("Trojan Source", CVE-2021-42574), are
// shown as ⟦U+202E⟧, as the web panel shows them.
package termtext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// C1 controls with a meaning of their own in their 8-bit form (ECMA-48 8.3).
const (
	c1DCS = 0x90
	c1SOS = 0x98
	c1CSI = 0x9b
	c1ST  = 0x9c
	c1OSC = 0x9d
	c1PM  = 0x9e
	c1APC = 0x9f
)

// isBidiControl reports whether r is an explicit bidirectional embedding,
// override or isolate (U+202A-U+202E, U+2066-U+2069; Unicode UAX #9): the
// characters that make text display in an order other than its own. The
// implicit marks (LRM, RLM, ALM) are ordinary text.
func isBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// needsClean reports whether s holds a byte Clean changes: a C0 control other
// than LF and TAB (ESC and CR included), DEL, a byte in 0x80-0x9F (a C1
// control's UTF-8 encoding C2 80-9F, or such a byte on its own), or a
// bidirectional control (isBidiControl).
func needsClean(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r >= 0x80 && r <= 0x9f) || (r == utf8.RuneError && n == 1 && c <= 0x9f) || isBidiControl(r) {
			return true
		}
		i += n
	}
	return false
}

// Clean returns s without what a terminal would act on rather than show:
//   - escape sequences, whole: CSI (ESC [ ... final byte), OSC, DCS, SOS, PM and
//     APC strings up to their BEL or ST (ESC \) terminator, other ESC sequences
//     (intermediates, then a final byte), and a bare ESC;
//   - the same sequences introduced by their 8-bit C1 form (U+009B CSI, U+009D
//     OSC, U+0090 DCS, U+0098 SOS, U+009E PM, U+009F APC), and every other C1
//     control (U+0080-U+009F), as a rune or as a lone byte;
//   - C0 controls other than LF and TAB, and DEL. CR is dropped too, so CRLF
//     becomes LF and a lone CR cannot overwrite a line already printed ("safe\rrm
//     -rf" shows as "saferm -rf");
//   - and it shows each bidirectional control as ⟦U+XXXX⟧ (isBidiControl).
//
// A sequence or string that a newline interrupts ends there (the text after the
// newline is kept), so an unterminated OSC hides at most the rest of its line.
// Text needing no change is returned as is, without allocating.
func Clean(s string) string {
	if !needsClean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			i = skipEscape(s, i+1)
		case c == '\n' || c == '\t':
			b.WriteByte(c)
			i++
		case c < 0x20 || c == 0x7f:
			i++ // CR, BS, BEL, ...
		case c < 0x80:
			b.WriteByte(c)
			i++
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && n == 1 && c <= 0x9f:
				i = skipC1(s, i+1, c) // an 8-bit C1 byte on its own
			case r >= 0x80 && r <= 0x9f:
				i = skipC1(s, i+n, byte(r))
			case isBidiControl(r):
				fmt.Fprintf(&b, "⟦U+%04X⟧", r)
				i += n
			default:
				b.WriteString(s[i : i+n])
				i += n
			}
		}
	}
	return b.String()
}

// Line is Clean for one table cell or one line of output: TABs and newlines
// become single spaces as well, so a value cannot break a table's columns or
// forge a row.
func Line(s string) string {
	s = Clean(s)
	if strings.ContainsAny(s, "\n\t") {
		s = strings.Join(strings.Fields(strings.NewReplacer("\n", " ", "\t", " ").Replace(s)), " ")
	}
	return s
}

// skipEscape returns the index just past the escape sequence whose ESC was just
// before s[i].
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_': // OSC, DCS, SOS, PM, APC
		return skipString(s, i+1)
	}
	// nF: intermediates 0x20-0x2F, then a final byte 0x30-0x7E (ESC ( B, ESC 7, ESC c).
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipC1 returns the index just past the sequence the C1 control c (already
// read, s[i] is the byte after it) introduces: a CSI's parameters, a string's
// body and terminator, nothing for the other C1 controls.
func skipC1(s string, i int, c byte) int {
	switch c {
	case c1CSI:
		return skipCSI(s, i)
	case c1OSC, c1DCS, c1SOS, c1PM, c1APC:
		return skipString(s, i)
	}
	return i
}

// skipCSI returns the index just past a control sequence's parameter and
// intermediate bytes and its final byte (0x40-0x7E), s[i] being its first
// byte after the introducer; a newline or another ESC ends it early.
func skipCSI(s string, i int) int {
	for i < len(s) {
		c := s[i]
		switch {
		case c >= 0x40 && c <= 0x7e:
			return i + 1
		case c == '\n' || c == 0x1b || c >= 0x80:
			return i // not a CSI byte: the sequence is broken here
		}
		i++
	}
	return i
}

// skipString returns the index just past a control string (OSC, DCS, SOS, PM,
// APC) whose body starts at s[i]: up to BEL, ST (ESC \ or U+009C), or a newline
// (kept).
func skipString(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i // another escape starts: this string is over
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == c1ST:
			return i + 2
		case s[i] == '\n':
			return i
		}
		i++
	}
	return i
}
