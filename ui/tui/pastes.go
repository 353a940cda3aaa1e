package tui

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
)

// A paste longer than these shows in the input box as a placeholder,
// `[Pasted 60 lines]`, as Claude Code's; the whole text is what is sent.
const (
	pasteMaxLines = 10
	pasteMaxChars = 1000
)

// pastedText is one large paste in the input box: the placeholder shown and
// the text it stands for.
type pastedText struct {
	label, text string
}

// largePaste reports whether a pasted text is shown as a placeholder.
func largePaste(text string) bool {
	return pasteLines(text) > pasteMaxLines || len([]rune(text)) > pasteMaxChars
}

// pasteLines counts a text's lines (a final newline ends the last one).
func pasteLines(text string) int {
	return strings.Count(strings.TrimSuffix(text, "\n"), "\n") + 1
}

// pasteLabel is the placeholder of a paste: `[Pasted N lines]`, or
// `[Pasted N chars]` for a long single line, with `#k` added when the box
// already holds that label.
func pasteLabel(text string, taken func(string) bool) string {
	base := fmt.Sprintf("Pasted %d lines", pasteLines(text))
	if pasteLines(text) == 1 {
		base = fmt.Sprintf("Pasted %d chars", len([]rune(text)))
	}
	label := "[" + base + "]"
	for k := 2; taken(label); k++ {
		label = fmt.Sprintf("[%s #%d]", base, k)
	}
	return label
}

// pasteIntoInput inserts a paste at the input box's cursor: a large one as
// its placeholder (remembered with its text), else as it is.
func (w *Workbench) pasteIntoInput(text string, insert func(string)) {
	if w.reasonFor != "" || !largePaste(text) { // the reason field takes it as it is
		insert(text)
		return
	}
	box := w.input.GetText()
	kept := w.in.pastes[:0] // drop the pastes whose placeholder left the box (sent, deleted)
	for _, p := range w.in.pastes {
		if strings.Contains(box, p.label) {
			kept = append(kept, p)
		}
	}
	w.in.pastes = kept
	label := pasteLabel(text, func(l string) bool { return strings.Contains(box, l) })
	w.in.pastes = append(w.in.pastes, pastedText{label: label, text: text})
	insert(label)
}

// expandPastes replaces each placeholder still whole in text by the paste it
// stands for (a placeholder edited into something else is left as typed).
func (w *Workbench) expandPastes(text string) string {
	for _, p := range w.in.pastes {
		text = strings.Replace(text, p.label, p.text, 1)
	}
	return text
}

// placeholderKey makes Backspace right after a placeholder, or Delete right
// before one, remove it whole; it reports whether it did. Other editing goes
// around it as around any text.
func (w *Workbench) placeholderKey(ev *tcell.EventKey) bool {
	if len(w.in.pastes) == 0 {
		return false
	}
	back := ev.Key() == tcell.KeyBackspace || ev.Key() == tcell.KeyBackspace2
	if !back && ev.Key() != tcell.KeyDelete {
		return false
	}
	sel, cursor, _ := w.input.GetSelection()
	if sel != "" {
		return false
	}
	text := w.input.GetText()
	for i, p := range w.in.pastes {
		start := cursor - len(p.label)
		if !back {
			start = cursor
		}
		if start >= 0 && start+len(p.label) <= len(text) && text[start:start+len(p.label)] == p.label {
			w.input.Replace(start, start+len(p.label), "")
			w.in.pastes = append(w.in.pastes[:i], w.in.pastes[i+1:]...)
			return true
		}
	}
	return false
}
