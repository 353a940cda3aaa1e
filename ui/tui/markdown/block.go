package markdown

import (
	"strings"

	"github.com/gdamore/tcell/v2"
)

// renderer turns markdown block structure into lines.
type renderer struct {
	p  *palette
	lb lineBuilder
	// endsWithNewline says the source's last line is complete; when it is
	// not, an unclosed fence's last line is still being streamed.
	endsWithNewline bool
}

// prefixes are the segments put before a block's lines: first for the very
// first line (a list bullet), rest for every other line (indentation, a
// quote bar).
type prefixes struct {
	first, rest []Segment
	used        bool
}

// take returns the prefix for the next line.
func (pf *prefixes) take() []Segment {
	if pf.used {
		return pf.rest
	}
	pf.used = true
	return pf.first
}

// blockKind classifies a rendered block for the spacing rule.
type blockKind int

const (
	bNone blockKind = iota
	bPara
	bHeading
	bCode
	bList
	bOther
)

// blocks renders lines (one source line each, no newlines) as a sequence of
// blocks. Consecutive blocks are separated by one blank line when the source
// had a blank line between them, or when either is a heading or code block.
func (r *renderer) blocks(lines []string, pf *prefixes, depth int) {
	prev := bNone
	sawBlank := false
	sep := func(k blockKind) {
		if prev != bNone && (sawBlank || k == bHeading || k == bCode || prev == bHeading || prev == bCode) {
			r.lb.blank(pf.take())
		}
		prev, sawBlank = k, false
	}
	for i := 0; i < len(lines); {
		line := lines[i]
		if isBlank(line) {
			sawBlank = true
			i++
			continue
		}
		if ch, n, ind, info, ok := fenceOpen(line); ok {
			j := i + 1
			var code []string
			closed := false
			for ; j < len(lines); j++ {
				if isFenceClose(lines[j], ch, n) {
					j++
					closed = true
					break
				}
				code = append(code, stripIndent(lines[j], ind))
			}
			sep(bCode)
			r.code(code, fenceLang(info), pf, !closed && !r.endsWithNewline)
			i = j
			continue
		}
		if level, text, ok := atxHeading(line); ok {
			sep(bHeading)
			r.heading(text, level, pf)
			i++
			continue
		}
		if isRule(line) {
			sep(bOther)
			r.rule(pf)
			i++
			continue
		}
		if isQuote(line) {
			j := i
			var inner []string
			for ; j < len(lines) && isQuote(lines[j]); j++ {
				inner = append(inner, stripQuote(lines[j]))
			}
			sep(bOther)
			bar := Segment{Text: "│ ", Style: r.p.quoteBar}
			qpf := prefixes{first: appendSeg(pf.take(), bar), rest: appendSeg(pf.rest, bar)}
			r.blocks(inner, &qpf, depth)
			i = j
			continue
		}
		if m, ok := listMarker(line); ok {
			j, item := listItem(lines, i, m)
			sep(bList)
			r.listItem(item, m, pf, depth)
			i = j
			continue
		}
		if j, ok := tableRows(lines, i); ok {
			sep(bOther)
			r.table(lines[i:j], pf)
			i = j
			continue
		}
		// Paragraph: until a blank line or the start of another block; a
		// setext underline turns it into a heading.
		j := i + 1
		for ; j < len(lines); j++ {
			if isBlank(lines[j]) {
				break
			}
			if lvl := setextLevel(lines[j]); lvl > 0 {
				sep(bHeading)
				r.heading(joinPara(lines[i:j]), lvl, pf)
				i = j + 1
				goto next
			}
			if startsBlock(lines[j]) {
				break
			}
		}
		sep(bPara)
		r.paragraph(lines[i:j], pf)
		i = j
	next:
	}
}

// paragraph renders prose lines: soft line breaks become spaces, a line
// ending in two spaces or a backslash forces a break.
func (r *renderer) paragraph(lines []string, pf *prefixes) {
	start := 0
	for k, l := range lines {
		if k == len(lines)-1 || strings.HasSuffix(l, "  ") || strings.HasSuffix(l, "\\") {
			text := joinPara(lines[start : k+1])
			if k < len(lines)-1 {
				text = strings.TrimSuffix(text, "\\")
			}
			r.prose(text, r.p.text, pf)
			start = k + 1
		}
	}
}

// prose renders one run of inline markdown, wrapped.
func (r *renderer) prose(text string, base tcell.Style, pf *prefixes) {
	var st styled
	r.p.inline(&st, text, base)
	r.lb.begin(pf.take(), pf.rest)
	r.lb.setSource(st.b.String(), st.spans)
	if len(st.spans) > 0 {
		r.lb.wrap()
	}
	r.lb.end()
}

// heading renders an ATX or setext heading.
func (r *renderer) heading(text string, level int, pf *prefixes) {
	r.prose(text, r.p.heading[min(level, 3)-1], pf)
}

// rule renders a thematic break across the available width.
func (r *renderer) rule(pf *prefixes) {
	first := pf.take()
	n := max(r.lb.width-segmentsWidth(first), 1)
	r.lb.lines = append(r.lb.lines, Line{Segments: appendSeg(first, Segment{Text: strings.Repeat("─", n), Style: r.p.rule})})
}

// code renders a fenced code block: each source line is laid out unwrapped
// and continued after a "↪" marker when wider than the line.
func (r *renderer) code(code []string, lang string, pf *prefixes, partialLast bool) {
	bar := Segment{Text: "│ ", Style: r.p.marker}
	cont := Segment{Text: "↪ ", Style: r.p.marker}
	restBar := appendSeg(pf.rest, bar)
	restCont := appendSeg(pf.rest, cont)
	if len(code) == 0 {
		r.lb.blank(appendSeg(pf.take(), bar))
		return
	}
	for k, st := range r.p.codeLines(code, lang, partialLast) {
		first := restBar
		if k == 0 {
			first = appendSeg(pf.take(), bar)
		}
		r.lb.begin(first, restCont)
		if len(st.spans) > 0 {
			r.lb.setSource(st.b.String(), st.spans)
			r.lb.clip(0, len(r.lb.src))
		}
		r.lb.end()
	}
}

// listItem renders one list item: its marker, then its content as blocks
// indented to the marker's width.
func (r *renderer) listItem(item []string, m marker, pf *prefixes, depth int) {
	mark := m.text
	if !m.ordered {
		mark = bullets[depth%len(bullets)]
	}
	if len(item) > 0 {
		if rest, ok := strings.CutPrefix(item[0], "[ ] "); ok {
			mark, item[0] = "☐", rest
		} else if rest, ok := cutTaskDone(item[0]); ok {
			mark, item[0] = "☑", rest
		}
	}
	mark += " "
	w := StringWidth(mark)
	ipf := prefixes{
		first: appendSeg(pf.take(), Segment{Text: mark, Style: r.p.bullet}),
		rest:  appendSeg(pf.rest, Segment{Text: strings.Repeat(" ", w), Style: r.p.text}),
	}
	if allBlank(item) {
		r.lb.lines = append(r.lb.lines, Line{Segments: ipf.take()})
		return
	}
	r.blocks(item, &ipf, depth+1)
}

// bullets are the unordered list markers by nesting depth.
var bullets = []string{"•", "◦", "▪"}

func cutTaskDone(s string) (string, bool) {
	if len(s) >= 4 && s[0] == '[' && (s[1] == 'x' || s[1] == 'X') && s[2] == ']' && s[3] == ' ' {
		return s[4:], true
	}
	return s, false
}

// appendSeg returns a new slice: prefix followed by segs.
func appendSeg(prefix []Segment, segs ...Segment) []Segment {
	out := make([]Segment, 0, len(prefix)+len(segs))
	out = append(out, prefix...)
	return append(out, segs...)
}

func allBlank(lines []string) bool {
	for _, l := range lines {
		if !isBlank(l) {
			return false
		}
	}
	return true
}
