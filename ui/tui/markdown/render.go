package markdown

import (
	"strings"

	"github.com/gdamore/tcell/v2"

	"pincer/themes"
)

// Render renders markdown source for a given width in cells with the theme
// (nil means dark): ATX and setext headings, paragraphs, bullet, numbered
// and task lists (nested), block quotes, thematic breaks, pipe tables,
// emphasis, strong, strikethrough, inline code, links and fenced code blocks
// (highlighted with chroma). A width below 1 is treated as 1. No line is
// wider than width, except that a two-cell grapheme is placed even when the
// indentation (list nesting, quote bars) leaves only one cell for it.
//
// Blocks are separated by one blank line when the source has one between
// them (and always around headings and code blocks); there are no leading or
// trailing blank lines.
func Render(src string, width int, th *themes.Theme) []Line {
	if width < 1 {
		width = 1
	}
	r := renderer{p: newPalette(th), lb: lineBuilder{width: width}}
	src = Sanitize(src)
	r.endsWithNewline = strings.HasSuffix(src, "\n")
	lines := strings.Split(src, "\n")
	r.blocks(lines, &prefixes{}, 0)
	return r.lb.lines
}

// Plain wraps plain text (user messages, tool output) at word boundaries to
// width cells, all in one style. Each newline starts a new line (a final
// newline adds none, so "" gives no line and "\n" one empty line); leading indentation is kept; tabs are expanded to
// 4-column stops; escape sequences and control characters are removed.
// Because lines are independent, Plain(a) followed by Plain(b) equals
// Plain(a+b) whenever a ends with a newline.
func Plain(text string, width int, style tcell.Style) []Line {
	if width < 1 {
		width = 1
	}
	text = Sanitize(text)
	if text == "" {
		return nil
	}
	text = strings.TrimSuffix(text, "\n")
	lb := lineBuilder{width: width}
	spans := []span{{style: style}}
	for {
		line, rest, more := strings.Cut(text, "\n")
		line = expandTabs(line)
		lb.begin(nil, nil)
		if line != "" {
			spans[0].end = len(line)
			lb.setSource(line, spans)
			lb.wrap()
		}
		lb.end()
		if !more {
			break
		}
		text = rest
	}
	return lb.lines
}
