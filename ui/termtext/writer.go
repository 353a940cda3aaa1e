package termtext

import (
	"fmt"
	"io"
	"strings"
)

// Writer passes every Write through Clean before it reaches W: the stream a
// human reads (stderr, a text-format stdout). Each Write is cleaned on its own;
// a sequence split across two Writes loses its introducer in the first and
// prints its printable tail in the second, so still nothing reaches the terminal
// that it would act on.
type Writer struct{ W io.Writer }

// NewWriter returns a Writer onto w (w itself when it already is one).
func NewWriter(w io.Writer) io.Writer {
	if _, ok := w.(*Writer); ok {
		return w
	}
	return &Writer{W: w}
}

// Write writes Clean(p) to W and reports len(p) written when that succeeds
// (the bytes removed count as written: the caller has nothing to retry).
func (w *Writer) Write(p []byte) (int, error) {
	s := string(p)
	c := Clean(s)
	if _, err := io.WriteString(w.W, c); err != nil {
		return 0, err
	}
	return len(p), nil
}

// JSONWriter passes every Write of JSON text (one encoded value or line, as
// json.Encoder writes it) through EscapeJSON before it reaches W: the JSON
// outputs (--json, --output-format json and stream-json, sessions watch) keep
// every character of their strings but carry none raw that a terminal acts on.
type JSONWriter struct{ W io.Writer }

// Write writes EscapeJSON(p) to W and reports len(p) written when that succeeds.
func (w JSONWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(w.W, EscapeJSON(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// EscapeJSON returns JSON text with each C1 control (U+0080-U+009F, which
// encoding/json writes raw) as its \u00XX escape; encoding/json already escapes
// the C0 controls and ESC. Outside strings JSON holds only ASCII, so the result
// is the same JSON value.
func EscapeJSON(s string) string {
	if !strings.Contains(s, "\xc2") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		if s[i] == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9f {
			fmt.Fprintf(&b, `\u%04x`, s[i+1])
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// JSON returns the writer a JSON output writes to: a JSONWriter onto w, or onto
// the stream beneath w when w is a Writer (JSON is escaped, not cleaned: Clean
// would drop characters of its strings).
func JSON(w io.Writer) io.Writer {
	switch t := w.(type) {
	case JSONWriter:
		return t
	case *Writer:
		w = t.W
	}
	return JSONWriter{W: w}
}
