package tui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"pincer/core/memory"
	"pincer/ui/termtext"
)

// The text editor over the panes: a candidate's text edited before it is
// accepted (e in the queue), or a memory file edited in /memory. It is a
// tview TextArea drawn over the main area, given every key while it is open
// (capture): Ctrl+S saves — for a candidate, accepts the edited text (an
// unchanged text is a plain accept); Esc closes and changes nothing. Nothing
// is written by the editor itself: saving is one Backend call. The text it
// shows is termtext.Clean'd (a model wrote a candidate's: no escape sequence
// reaches the terminal), and what it shows is what is written: a text that
// Clean changed is saved as the edit it is, even untouched.

// textEditor is the editor's part of UIState.
type textEditor struct {
	open   bool
	placed bool   // the cursor was put at the end of the text, at the first draw
	title  string // the header: what is edited and where it would be written
	area   *tview.TextArea
	// save is what Ctrl+S does with the text (event loop; it starts any
	// backend call off it).
	save func(text string)
}

// openEditor opens the editor on text (shown clean: editorText) under
// title; Ctrl+S hands the text to save.
func (w *Workbench) openEditor(title, text string, save func(string)) {
	text = editorText(text)
	area := tview.NewTextArea().SetWrap(true)
	area.SetText(text, false) // placed at the end once the area has its size (drawEditor)
	area.SetTextStyle(w.theme.Style("text"))
	area.Focus(func(tview.Primitive) {})
	w.ed = textEditor{open: true, title: title, area: area, save: save}
}

// openCandidateEditor is e on candidate e: its text, accepted edited on
// Ctrl+S while it still waits.
func (w *Workbench) openCandidateEditor(e pendingEntry) {
	c := e.a.Candidate
	if c.Op == memory.OpRemove {
		w.hint("a removal has no text to edit: y accepts it, n rejects it")
		return
	}
	key := e.a.RequestID
	w.openEditor("Edit "+e.a.Summary+" — "+termtext.Line(c.Target), c.Content, func(text string) {
		p, ok := w.pendingOf(key)
		if !ok {
			w.Notify("warning", "the candidate was decided while you edited it: nothing written")
			return
		}
		d := memory.Decision{Action: memory.AcceptEdited, Text: text}
		if text == c.Content { // as proposed, byte for byte (editorText changed nothing)
			d = memory.Decision{Action: memory.Accept}
		}
		w.decideCandidate(p, d, "accepted (edited): ")
	})
}

// editorText is text as the editor shows it: without control characters and
// escape sequences (termtext.Clean keeps newlines and tabs).
func editorText(text string) string { return termtext.Clean(text) }

// editorKey handles a key while the editor is open: Ctrl+S saves and
// closes, Esc closes, anything else edits.
func (w *Workbench) editorKey(ev *tcell.EventKey) {
	switch ev.Key() {
	case tcell.KeyCtrlS:
		save, text := w.ed.save, w.ed.area.GetText()
		w.ed = textEditor{}
		save(text)
	case tcell.KeyEscape:
		w.ed = textEditor{}
		w.hint("edit closed: nothing changed")
	default:
		if h := w.ed.area.InputHandler(); h != nil {
			h(ev, func(tview.Primitive) {})
		}
	}
}

// editorPaste gives pasted text to the open editor.
func (w *Workbench) editorPaste(text string) {
	if h := w.ed.area.PasteHandler(); h != nil {
		h(text, func(tview.Primitive) {})
	}
}

// editorKeyBar is the key bar while the editor is open.
func editorKeyBar() []string { return []string{"Ctrl+S save (accept)", "Esc cancel"} }

// drawEditor draws the editor over the panes (r: the main area).
func (w *Workbench) drawEditor(screen tcell.Screen, r rect) {
	if r.W < 10 || r.H < 4 {
		return
	}
	for y := r.Y; y < r.Y+r.H; y++ {
		fillRow(screen, r.X, y, r.W, w.theme.Style("text"))
	}
	printAt(screen, r.X+1, r.Y, r.W-2, cutCells(w.ed.title, r.W-2), w.theme.Style("accent").Bold(true))
	printAt(screen, r.X+1, r.Y+1, r.W-2, cutCells("Ctrl+S saves · Esc cancels", r.W-2), w.theme.Style("muted"))
	w.ed.area.SetRect(r.X+1, r.Y+2, r.W-2, r.H-2)
	if !w.ed.placed { // the cursor at the end: an addition is typed straight away
		w.ed.area.SetText(w.ed.area.GetText(), true)
		w.ed.area.SetOffset(0, 0) // from the top (tview scrolls the end's row to the top); Draw keeps the cursor in view
		w.ed.placed = true
	}
	w.ed.area.Draw(screen)
}
