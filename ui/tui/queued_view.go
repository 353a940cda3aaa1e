package tui

import (
	"fmt"
	"strings"

	"github.com/rivo/tview"
)

// queuedPreviewRunes is how much of a queued prompt's first line the input
// box's title shows (runes; the placeholder shows more, queuedPlaceholderRunes).
const (
	queuedPreviewRunes     = 32
	queuedPlaceholderRunes = 400
)

// queuedPreview is text cut for a one-line label: its first non-blank line,
// at most n runes ("…" when cut), with "(+N lines)" when more follow. A new
// user r22 queued a prompt and saw only the placeholder: the text went
// nowhere visible.
func queuedPreview(text string, n int) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	first := strings.TrimSpace(lines[0])
	if r := []rune(first); len(r) > n {
		first = string(r[:n]) + "…"
	}
	if len(lines) > 1 {
		first += fmt.Sprintf(" (+%d lines)", len(lines)-1)
	}
	return first
}

// queuedPlaceholder is the empty input box's placeholder while the shown tab
// holds a queued prompt: the prompt itself and what will happen to it; ""
// without one.
func (t *sessionTab) queuedPlaceholder() string {
	if t.queued == "" {
		return ""
	}
	return "Queued: " + queuedPreview(t.queued, queuedPlaceholderRunes) + "\n— sent when the turn ends; Esc takes it back into the box"
}

// queuedNotice is the transcript's notice when a prompt is queued: what
// happens to it, in words of its own (the box's title was copied there:
// "Input · queued: …", new user r22).
func (t *sessionTab) queuedNotice() string {
	if t.othersTurn() && !t.running {
		who := t.runner
		if who == "" {
			who = "another process"
		}
		return "prompt queued: it is sent when the turn of " + who + " ends (Esc takes it back)"
	}
	return "prompt queued: it is sent when this turn ends (Esc takes it back)"
}

// setInputPlaceholder shows the queued prompt in the empty input box, or the
// usual hint; set only when it changes.
func (w *Workbench) setInputPlaceholder() {
	p := w.queuedPlaceholder()
	if p == "" {
		p = w.inputPlaceholder()
	}
	if p != w.in.placeholderShown {
		w.in.placeholderShown = p
		w.input.SetPlaceholder(p)
	}
}

// queuedLabel is the queued prompt's preview as the title shows it (tview
// tags escaped: the text is the person's, drawn by a title that reads them).
func queuedLabel(text string) string {
	return "«" + tview.Escape(queuedPreview(text, queuedPreviewRunes)) + "»"
}
