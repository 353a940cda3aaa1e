package markdown

import (
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"pincer/ui/tui/internal/cells"
)

// span gives the style of the styled text up to byte offset end.
type span struct {
	end   int
	style tcell.Style
}

// styled is a run of text with styles: spans cover text in order.
type styled struct {
	b     strings.Builder
	spans []span
}

// add appends text in style st, merging with the previous span when the
// style is the same.
func (s *styled) add(text string, st tcell.Style) {
	if text == "" {
		return
	}
	s.b.WriteString(text)
	if n := len(s.spans); n > 0 && s.spans[n-1].style == st {
		s.spans[n-1].end = s.b.Len()
		return
	}
	s.spans = append(s.spans, span{end: s.b.Len(), style: st})
}

// lineBuilder accumulates output lines. A paragraph starts with begin, gets
// its text through wrap or clip, and ends with end.
type lineBuilder struct {
	lines []Line
	width int

	cur     []Segment
	w       int  // cells used on the current line, prefix included
	content bool // the current line holds text beyond its prefix
	word    bool // ... and that text is more than leading indentation
	rest    []Segment
	restW   int

	src     string
	spans   []span
	si      int
	merge   bool // the last segment of cur came from src and may grow
	mStart  int
	mEnd    int
	wrapped bool // the current line was started by wrapping
}

// blank adds a line holding only prefix.
func (lb *lineBuilder) blank(prefix []Segment) {
	lb.lines = append(lb.lines, Line{Segments: trimTrailingSpace(clonePrefix(prefix, 0))})
}

// begin starts a paragraph: a new line with prefix first, continuation lines
// with prefix rest.
func (lb *lineBuilder) begin(first, rest []Segment) {
	lb.rest, lb.restW = fitPrefix(rest, lb.width-1)
	first, lb.w = fitPrefix(first, lb.width-1)
	lb.cur = clonePrefix(first, 4)
	lb.content, lb.word = false, false
	lb.merge = false
	lb.wrapped = false
}

// end finishes the paragraph's last line.
func (lb *lineBuilder) end() {
	lb.lines = append(lb.lines, Line{Segments: lb.cur})
	lb.cur = nil
}

// newline finishes the current line and starts a continuation line.
func (lb *lineBuilder) newline() {
	lb.lines = append(lb.lines, Line{Segments: lb.cur})
	lb.cur = clonePrefix(lb.rest, 4)
	lb.w = lb.restW
	lb.content, lb.word = false, false
	lb.merge = false
	lb.wrapped = true
}

// setSource sets the text and styles that emit reads from.
func (lb *lineBuilder) setSource(src string, spans []span) {
	lb.src, lb.spans, lb.si = src, spans, 0
	lb.merge = false
}

// emit appends src[from:to] to the current line with its styles; it does not
// account width.
func (lb *lineBuilder) emit(from, to int) {
	for from < to {
		for lb.si < len(lb.spans)-1 && lb.spans[lb.si].end <= from {
			lb.si++
		}
		sp := lb.spans[lb.si]
		e := min(to, sp.end)
		if e <= from { // spans do not cover the text: use the last style
			e = to
		}
		if n := len(lb.cur); lb.merge && lb.mEnd == from && lb.cur[n-1].Style == sp.style {
			lb.cur[n-1].Text = lb.src[lb.mStart:e]
		} else {
			lb.cur = append(lb.cur, Segment{Text: lb.src[from:e], Style: sp.style})
			lb.mStart = from
		}
		lb.mEnd = e
		lb.merge = true
		from = e
	}
	lb.content = true
}

// wrap lays out the whole source as one paragraph, breaking lines at the
// Unicode line-break opportunities (spaces, between CJK ideographs, after
// hyphens) and breaking words wider than the line hard. Leading spaces of
// the paragraph are kept; spaces at a wrap point are dropped.
func (lb *lineBuilder) wrap() {
	if isASCII(lb.src) {
		lb.wrapASCII()
		return
	}
	src := lb.src
	rest := src
	state := -1
	pos := 0
	uStart, cEnd := 0, 0 // current unit and the end of its non-space content
	cw, sw := 0, 0       // widths of the unit's content and trailing spaces
	pFrom, pTo, pW := 0, 0, 0
	atStart := true
	for rest != "" {
		var c string
		var b int
		c, rest, b, state = uniseg.StepString(rest, state)
		w := cells.ClusterWidth(c, b>>uniseg.ShiftWidth)
		end := pos + len(c)
		if c == " " {
			sw += w
		} else {
			cw += sw + w
			sw = 0
			cEnd = end
		}
		pos = end
		if b&uniseg.MaskLine == uniseg.LineDontBreak && rest != "" {
			continue
		}
		// A break opportunity after this cluster: place the unit.
		if cw == 0 {
			if atStart {
				lb.place(uStart, end, sw)
			} else if pTo == uStart && pW > 0 {
				pTo, pW = end, pW+sw
			} else {
				pFrom, pTo, pW = uStart, end, sw
			}
		} else {
			if lb.word && lb.w+pW+cw > lb.width {
				lb.newline()
			} else if pW > 0 && lb.word {
				lb.emit(pFrom, pTo)
				lb.w += pW
			}
			lb.place(uStart, cEnd, cw)
			lb.word = true
			pFrom, pTo, pW = cEnd, end, sw
			atStart = false
		}
		uStart, cEnd, cw, sw = end, end, 0, 0
	}
}

// wrapASCII is wrap for printable ASCII, where every byte is one cell and
// lines break only at spaces: the common case (code, logs, English prose),
// about ten times faster than the Unicode line-breaking rules.
func (lb *lineBuilder) wrapASCII() {
	src := lb.src
	n := len(src)
	pFrom, pTo := 0, 0
	atStart := true
	for i := 0; i < n; {
		j := i
		for j < n && src[j] == ' ' {
			j++
		}
		if j > i {
			if atStart {
				lb.place(i, j, j-i)
			} else {
				pFrom, pTo = i, j
			}
			i = j
			continue
		}
		for j < n && src[j] != ' ' {
			j++
		}
		cw, pW := j-i, pTo-pFrom
		if lb.word && lb.w+pW+cw > lb.width {
			lb.newline()
		} else if pW > 0 && lb.word {
			lb.emit(pFrom, pTo)
			lb.w += pW
		}
		lb.place(i, j, cw)
		lb.word = true
		pFrom, pTo = j, j
		atStart = false
		i = j
	}
}

// place puts src[from:to] (w cells) on the current line, breaking it hard
// at grapheme boundaries when it does not fit.
func (lb *lineBuilder) place(from, to, w int) {
	if lb.w+w <= lb.width {
		lb.emit(from, to)
		lb.w += w
		return
	}
	lb.clip(from, to)
}

// clip lays out src[from:to] cluster by cluster, starting a continuation
// line whenever the next cluster would pass the width. It is how code lines
// are laid out (never re-flowed) and how over-long words are broken.
func (lb *lineBuilder) clip(from, to int) {
	if isASCII(lb.src[from:to]) {
		for from < to {
			avail := lb.width - lb.w
			if avail <= 0 {
				if lb.content {
					lb.newline()
					continue
				}
				avail = 1
			}
			e := min(to, from+avail)
			lb.emit(from, e)
			lb.w += e - from
			from = e
		}
		return
	}
	s := lb.src[from:to]
	state := -1
	pos := from
	for s != "" {
		var c string
		var w int
		c, s, w, state = cells.Next(s, state)
		if lb.content && lb.w+w > lb.width {
			lb.newline()
		}
		lb.emit(pos, pos+len(c))
		lb.w += w
		pos += len(c)
	}
}

// fitPrefix cuts a prefix (list indentation, quote bars) to at most max
// cells, so that deep nesting in a narrow pane still leaves a cell for text.
// It returns the prefix and its width.
func fitPrefix(p []Segment, max int) ([]Segment, int) {
	w := segmentsWidth(p)
	if w <= max || max < 0 {
		return p, w
	}
	var out []Segment
	used := 0
	for _, s := range p {
		sw := StringWidth(s.Text)
		if used+sw <= max {
			out = append(out, s)
			used += sw
			continue
		}
		text, state, cut := s.Text, -1, 0
		for text != "" {
			var c string
			var cw int
			c, text, cw, state = cells.Next(text, state)
			if used+cw > max {
				break
			}
			used += cw
			cut += len(c)
		}
		if cut > 0 {
			out = append(out, Segment{Text: s.Text[:cut], Style: s.Style})
		}
		break
	}
	return out, used
}

// clonePrefix copies a prefix into a new slice with room for extra segments.
func clonePrefix(p []Segment, extra int) []Segment {
	out := make([]Segment, len(p), len(p)+extra)
	copy(out, p)
	return out
}

// segmentsWidth returns the width in cells of the segments.
func segmentsWidth(segs []Segment) int {
	w := 0
	for _, s := range segs {
		w += StringWidth(s.Text)
	}
	return w
}

// trimTrailingSpace removes trailing spaces from the last segments (used for
// lines that hold only a prefix).
func trimTrailingSpace(segs []Segment) []Segment {
	for len(segs) > 0 {
		last := &segs[len(segs)-1]
		last.Text = strings.TrimRight(last.Text, " ")
		if last.Text != "" {
			break
		}
		segs = segs[:len(segs)-1]
	}
	return segs
}

// isASCII reports whether s is printable ASCII only (after Sanitize, the
// only control characters left are LF and TAB, which never reach here).
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] < 0x20 {
			return false
		}
	}
	return true
}
