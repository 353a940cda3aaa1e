package tui

import (
	"strconv"

	"github.com/gdamore/tcell/v2"
)

// typedAhead is one key or paste that arrived while a /model flow ran with
// no prompt open: between `/model set … api-key` and its secret prompt, a key
// typed or pasted ahead went into the input box, in clear on the screen (and
// sent to the model on Enter). It waits for the flow's next prompt instead.
type typedAhead struct {
	key   *tcell.EventKey // nil for a paste
	paste string
}

// holdTypeAhead keeps ev for the running /model flow's next prompt when one
// runs with no prompt open; Esc and Ctrl+C still act. It reports whether it
// kept ev. Event loop only.
func (w *Workbench) holdTypeAhead(ev *tcell.EventKey) bool {
	if !w.flowBusy || w.prompt != nil || ev.Key() == tcell.KeyEscape || ev.Key() == tcell.KeyCtrlC {
		return false
	}
	w.ahead = append(w.ahead, typedAhead{key: ev})
	return true
}

// holdPasteAhead is holdTypeAhead for a paste.
func (w *Workbench) holdPasteAhead(text string) bool {
	if !w.flowBusy || w.prompt != nil {
		return false
	}
	w.ahead = append(w.ahead, typedAhead{paste: text})
	return true
}

// replayTypeAhead hands the keys and pastes held to the prompt just opened,
// as many as it takes before it is answered (the rest wait for the next).
// Event loop only.
func (w *Workbench) replayTypeAhead() {
	for len(w.ahead) > 0 && w.prompt != nil {
		a := w.ahead[0]
		w.ahead = w.ahead[1:]
		if a.key != nil {
			w.promptKey(a.key)
		} else {
			w.promptPaste(a.paste)
		}
	}
}

// dropTypeAhead forgets what is still held when the flow ends: it may be a
// secret meant for a prompt that never came, so it never goes to the input
// box.
func (w *Workbench) dropTypeAhead() {
	if n := len(w.ahead); n > 0 {
		w.ahead = nil
		w.hint(strconv.Itoa(n) + " keys typed while /model ran were not used (no prompt took them)")
	}
}
