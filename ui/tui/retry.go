package tui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"pincer/ui/tui/transcript"
)

// retry sends the prompt of the session's last turn again when that turn
// failed (F5): the model call that broke, a provider error, the turn cut by
// a failure. What the box holds stays there. Event loop only.
func (w *Workbench) retry() {
	prompt, ok := w.failedPrompt()
	switch {
	case w.running:
		w.notice("warning", "a turn is running: wait for it, or press Esc to cancel it")
		return
	case !ok:
		w.hint("the last turn did not fail: nothing to retry")
		return
	}
	box, pastes := w.input.GetText(), w.in.pastes
	w.submit(prompt)
	if w.running && box != "" {
		w.input.SetText(box, true)
		w.in.pastes = pastes
	}
}

// failedPrompt is the input of the shown session's last turn when it failed.
func (w *Workbench) failedPrompt() (string, bool) {
	if w.model.Status.Turn != TurnFailed {
		return "", false
	}
	for i := len(w.model.Blocks) - 1; i >= 0; i-- {
		if b := w.model.Blocks[i]; b.Kind == transcript.KindUser {
			return b.Text, true
		}
	}
	return "", false
}

// scrollTranscript scrolls the transcript a page from the input box (PgUp,
// PgDn), leaving the focus where it is: as the transcript's own page keys.
func (w *Workbench) scrollTranscript(act Action) {
	k := tcell.KeyPgUp
	if act == ActScrollDown {
		k = tcell.KeyPgDn
	}
	if h := w.view.InputHandler(); h != nil {
		h(tcell.NewEventKey(k, 0, tcell.ModNone), func(tview.Primitive) {})
	}
}
