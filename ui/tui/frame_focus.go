package tui

import "github.com/rivo/tview"

// Moving tview's focus from inside a frame. The frame's sync (syncFrame, and
// the pump's inbox it drains: a held approval answer committing, a session
// switch) runs inside tview's draw, which holds the Application's lock:
// Application.SetFocus there would take that lock again and hang the event
// loop for good (seen: a held 'N' opening the reason field). frameFocus is
// what such code calls instead. Keys already route by UIState (w.focus,
// w.reasonFor), so only the widgets' own focus flags are set at once, for
// the frame being drawn; tview's record of the focused primitive follows at
// the next key (applyFrameFocus, first thing in capture).

// frameState is the workbench's record of a focus move made inside a frame.
type frameState struct {
	inFrame bool            // syncFrame is running (inside tview's draw)
	pending tview.Primitive // to hand to Application.SetFocus at the next key
}

// focusWidget gives p the focus: at once outside a frame, through
// frameFocus inside one.
func (w *Workbench) focusWidget(p tview.Primitive) {
	if !w.frame.inFrame {
		w.frame.pending = nil
		w.app.SetFocus(p)
		return
	}
	w.frameFocus(p)
}

// frameFocus marks p focused for drawing (every other pane and the input
// widgets blurred) and keeps it for applyFrameFocus. Inside a frame only.
func (w *Workbench) frameFocus(p tview.Primitive) {
	for i := 0; i < paneCount; i++ {
		if q := w.pane(i); q != p {
			q.Blur()
		}
	}
	for _, q := range []tview.Primitive{w.input, w.reason} {
		if q != p {
			q.Blur()
		}
	}
	p.Focus(func(tview.Primitive) {})
	w.frame.pending = p
}

// applyFrameFocus tells tview of a focus move a frame made. Event loop, outside
// a frame (capture).
func (w *Workbench) applyFrameFocus() {
	if p := w.frame.pending; p != nil {
		w.frame.pending = nil
		w.app.SetFocus(p)
	}
}
