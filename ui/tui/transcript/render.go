package transcript

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"pincer/ui/tui/internal/cells"

	"pincer/themes"
	"pincer/ui/tui/markdown"
)

// render lays out block e at the view's content width into r.
func (v *View) render(e *entry, r *rendering) {
	w := v.width
	th := v.theme
	b := &e.b
	if e.hasHead() {
		r.head = []markdown.Line{v.headLine(b, w)}
	}
	switch b.Kind {
	case KindAssistant:
		v.renderStream(e, r, true, th.Style(themes.TokenText))
	case KindTool:
		r.stable = v.toolBody(b.Text, w, b.OutputLines)
	case KindReasoning, KindNotice:
		v.renderStream(e, r, false, th.Style(themes.TokenMuted))
	case KindError:
		v.renderStream(e, r, false, th.Style(themes.TokenError))
	default:
		v.renderStream(e, r, false, th.Style(themes.TokenText))
	}
}

// renderStream renders a text body. A finished block is rendered whole. A
// growing one keeps the rendering of the part before its last stable split
// point (a paragraph break for markdown, a newline for plain text) and
// renders only the rest; the stable part grows incrementally. A growing
// text that ends inside a UTF-8 sequence (a delta cut a rune in two) is
// drawn without that incomplete rune until the rest of it arrives.
func (v *View) renderStream(e *entry, r *rendering, md bool, style tcell.Style) {
	text, w := e.b.Text, v.width
	if !e.b.Done {
		text = completeRunes(text)
	}
	draw := func(s string) []markdown.Line {
		if md {
			return markdown.Render(s, w, v.theme)
		}
		return markdown.Plain(s, w, style)
	}
	if e.b.Done {
		e.resetStream()
		r.stable = draw(text)
		return
	}
	var split int
	if md {
		split = e.split.Advance(text)
	} else {
		split = strings.LastIndexByte(text, '\n') + 1
	}
	if e.stableW != w || split < e.stableEnd || e.stableEnd > len(text) {
		e.stable, e.stableEnd, e.stableW = nil, 0, w
	}
	if split > e.stableEnd {
		more := draw(text[e.stableEnd:split])
		if md && len(e.stable) > 0 && len(more) > 0 {
			e.stable = append(e.stable, markdown.Line{})
		}
		e.stable = append(e.stable, more...)
		e.stableEnd = split
	}
	r.stable = e.stable[:len(e.stable):len(e.stable)]
	r.tail = draw(text[split:])
	r.sep = md
}

// completeRunes returns text without a trailing incomplete UTF-8 sequence
// (at most 3 bytes: the start of a rune whose continuation bytes have not
// arrived yet). Invalid bytes elsewhere are left alone.
func completeRunes(text string) string {
	for n := 1; n <= utf8.UTFMax-1 && n <= len(text); n++ {
		c := text[len(text)-n]
		if c < utf8.RuneSelf {
			return text // ASCII: nothing pending
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRuneInString(text[len(text)-n:]) {
				return text[:len(text)-n]
			}
			return text
		}
	}
	return text
}

// toolBody renders tool output, at most maxTool source lines, with a note
// when lines were left out. whole is the line count of the output before the
// tool cut it (Block.OutputLines; 0: text is all of it): the note counts those.
func (v *View) toolBody(text string, w, whole int) []markdown.Line {
	muted := v.theme.Style(themes.TokenMuted)
	if strings.TrimSpace(text) == "" {
		return []markdown.Line{{Segments: []markdown.Segment{{Text: "(no output)", Style: muted}}}}
	}
	shown, n := capLines(text, v.maxTool)
	shownN, total := min(n, v.maxTool), max(n, whole)
	lines := markdown.Plain(shown, w, v.theme.Style(themes.TokenText))
	if total > shownN {
		note := fmt.Sprintf("… %d more lines (%d of %d shown)", total-shownN, shownN, total)
		lines = append(lines, markdown.Plain(note, w, muted)...)
	}
	return lines
}

// capLines returns the first n lines of text and the total line count.
func capLines(text string, n int) (string, int) {
	text = strings.TrimSuffix(text, "\n")
	total := strings.Count(text, "\n") + 1
	if total <= n {
		return text, total
	}
	end := 0
	for k := 0; k < n; k++ {
		end += strings.IndexByte(text[end:], '\n') + 1
	}
	return text[:end-1], total
}

// headLine renders a block's title line: the title (or a default), then the
// status for tool calls that need attention, cut to width with "…".
func (v *View) headLine(b *Block, w int) markdown.Line {
	th := v.theme
	title := b.Title
	style := th.Style(themes.TokenText)
	switch b.Kind {
	case KindReasoning:
		if title == "" {
			title = "Thinking"
		}
		style = th.Style(themes.TokenMuted).Italic(true)
	case KindTool:
		if title == "" {
			title = "tool call"
		}
	case KindError:
		style = th.Style(themes.TokenError).Bold(true)
	case KindNotice:
		style = th.Style(themes.TokenMuted)
	default:
		style = style.Bold(true)
	}
	segs := []markdown.Segment{{Text: oneLine(title), Style: style}}
	if b.Kind == KindTool {
		switch b.Status {
		case StatusApproval, StatusFailed, StatusDenied, StatusInterrupted, StatusUnanswered:
			word := b.Status
			if b.StatusNote != "" {
				word += " " + oneLine(b.StatusNote)
			}
			segs = append(segs, markdown.Segment{Text: "  " + word, Style: v.statusStyle(b.Status)})
		}
	}
	return truncate(markdown.Line{Segments: segs}, w, th.Style(themes.TokenMuted))
}

// oneLine flattens a title to one line.
func oneLine(s string) string {
	s = markdown.Sanitize(s)
	if strings.ContainsAny(s, "\n\t") {
		s = strings.NewReplacer("\n", " ", "\t", " ").Replace(s)
	}
	return s
}

// truncate cuts a line to w cells, ending it with "…" when it was longer.
func truncate(l markdown.Line, w int, ellipsis tcell.Style) markdown.Line {
	if l.Width() <= w {
		return l
	}
	var out []markdown.Segment
	used := 0
	for _, s := range l.Segments {
		text := s.Text
		state := -1
		pos := 0
		for text != "" {
			var c string
			var cw int
			c, text, cw, state = cells.Next(text, state)
			if used+cw > w-1 {
				if pos > 0 {
					out = append(out, markdown.Segment{Text: s.Text[:pos], Style: s.Style})
				}
				return markdown.Line{Segments: append(out, markdown.Segment{Text: "…", Style: ellipsis})}
			}
			used += cw
			pos += len(c)
		}
		out = append(out, s)
	}
	return markdown.Line{Segments: out}
}

// statusIcon returns the icon of a tool status.
func statusIcon(status string) string {
	switch status {
	case StatusPending:
		return "○"
	case StatusReceiving:
		return "…"
	case StatusApproval:
		return "◌"
	case StatusRunning:
		return "◐"
	case StatusDone:
		return "✓"
	case StatusFailed:
		return "✗"
	case StatusDenied:
		return "⊘"
	case StatusInterrupted, StatusUnanswered:
		return "↯"
	}
	return "●"
}

// statusStyle returns the style of a tool status.
func (v *View) statusStyle(status string) tcell.Style {
	th := v.theme
	switch status {
	case StatusApproval:
		return th.Style(themes.TokenWarning)
	case StatusRunning:
		return th.Style(themes.TokenAccent)
	case StatusDone:
		return th.Style(themes.TokenSuccess)
	case StatusFailed, StatusDenied:
		return th.Style(themes.TokenError)
	case StatusInterrupted, StatusUnanswered:
		return th.Style(themes.TokenWarning)
	}
	return th.Style(themes.TokenMuted)
}
