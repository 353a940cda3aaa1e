// Package markdown renders markdown (and plain text) into styled, wrapped
// terminal lines for pincer's transcript.
//
// Contract:
//   - Output is a slice of Line, each a run of Segments with a tcell style.
//     A line's width in cells (Line.Width) is computed with the same
//     grapheme-cluster widths tcell uses when drawing (uniseg), so CJK and
//     emoji occupy their real two cells and no line is wider than the width
//     asked for.
//   - Prose wraps at word boundaries; a word longer than the width is broken
//     hard. Fenced code lines are never re-flowed: a code line longer than the
//     width continues on the next row after a "↪" marker.
//   - Fenced code is highlighted by chroma with the theme's chroma style. The
//     lexer is chosen only by the fence's language tag (never by content
//     analysis) and cached per tag; chroma's lexer registry is touched only on
//     the first highlight (see highlight.go for the start-up cost note).
//   - Render and Plain are pure functions of their inputs and safe for
//     concurrent use.
package markdown

import (
	"strings"

	"github.com/gdamore/tcell/v2"
)

// Segment is a run of text drawn with one style. Text never contains a
// newline.
type Segment struct {
	Text  string
	Style tcell.Style
}

// Line is one rendered terminal row: segments of styled text.
type Line struct {
	Segments []Segment
}

// Width returns the line's width in terminal cells.
func (l Line) Width() int {
	w := 0
	for _, s := range l.Segments {
		w += StringWidth(s.Text)
	}
	return w
}

// String returns the line's text without styles.
func (l Line) String() string {
	var b strings.Builder
	for _, s := range l.Segments {
		b.WriteString(s.Text)
	}
	return b.String()
}
