package tui

import (
	"github.com/gdamore/tcell/v2"

	"pincer/core/app"
	"pincer/ui/tui/overlay"
)

// overlayPrompter is the workbench's app.Prompter: each question opens the
// prompt overlay (package overlay) and blocks the calling goroutine (never the
// event loop) until it is answered, cancelled, or the workbench stops.
type overlayPrompter struct{ w *Workbench }

// ask shows q and waits for its answer.
func (p overlayPrompter) ask(q overlay.Question) overlay.Reply {
	w := p.w
	st := overlay.Open(q)
	w.pump.post(func() { w.prompt = st; w.replayTypeAhead() })
	select {
	case r := <-st.Replies():
		return r
	case <-w.ctx.Done(): // the workbench stopped: no frame will show it
		return overlay.Reply{Err: app.ErrCancelled}
	}
}

// Ask asks for a line; Enter on an empty line answers def.
func (p overlayPrompter) Ask(question, def string) (string, error) {
	r := p.ask(overlay.Question{Kind: overlay.Ask, Text: question, Default: def})
	return r.Text, r.Err
}

// AskSecret asks for a line shown only as •.
func (p overlayPrompter) AskSecret(question string) (string, error) {
	r := p.ask(overlay.Question{Kind: overlay.Secret, Text: question})
	return r.Text, r.Err
}

// Confirm asks y/n; Enter alone is no.
func (p overlayPrompter) Confirm(question string) (bool, error) {
	r := p.ask(overlay.Question{Kind: overlay.Confirm, Text: question})
	return r.Yes, r.Err
}

// Choose asks for one of options (j/k or arrows, then Enter; 1-9 pick
// directly), the selection starting on def (the first option when def < 0).
func (p overlayPrompter) Choose(question string, options []string, def int) (int, error) {
	if len(options) == 0 {
		return 0, app.ErrCancelled
	}
	r := p.ask(overlay.Question{Kind: overlay.Choose, Text: question, Options: options, Selected: max(0, min(def, len(options)-1))})
	return r.Index, r.Err
}

// promptKey hands a key to the open prompt overlay, closing it once answered
// (event loop).
func (w *Workbench) promptKey(ev *tcell.EventKey) {
	if w.prompt != nil && w.prompt.Key(ev) {
		w.prompt = nil
	}
}

// promptPaste puts pasted text into the open prompt overlay; it reports
// whether the overlay took it.
func (w *Workbench) promptPaste(text string) bool {
	if w.prompt == nil {
		return false
	}
	w.prompt.Paste(text)
	return true
}

// drawPrompt draws the prompt overlay centred over r.
func (w *Workbench) drawPrompt(screen tcell.Screen, r rect) {
	w.prompt.Draw(screen, w.promptBox, r.X, r.Y, r.W, r.H, w.theme.Style)
}
