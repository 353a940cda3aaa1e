package tui

import (
	"fmt"

	"pincer/ui/tui/transcript"
)

// syncRecord is what the transcript view was last given for a block: all but
// the text, and the text's length. A block that only grew gets AppendText,
// anything else Upsert.
type syncRecord struct {
	meta transcript.Block // Text cleared
	n    int
}

// syncFrame brings the event-loop widgets in step with the model before a
// frame: a fresh transcript view after a session switch, the changed blocks,
// local notices, input to restore, after the messages of background work
// (the pump's inbox). It runs on the event loop (inside the
// pump's QueueUpdateDraw).
func (w *Workbench) syncFrame() {
	w.frame.inFrame = true
	defer func() { w.frame.inFrame = false }()
	w.pump.drain() // the background work's messages, in order
	w.syncApprovalFocus()
	if w.resetView {
		w.resetView = false
		hadFocus := w.focus == paneTranscript
		w.view = w.newTranscriptView()
		clear(w.synced)
		if hadFocus {
			w.focusWidget(w.view)
		}
		for _, b := range w.model.Blocks {
			w.syncBlock(b)
		}
		w.model.TakeTouched()
		if !w.startNotesShown { // the first session shown gets the notices of the start (config errors)
			w.startNotesShown = true
			for _, text := range w.startNotes {
				w.upsertNote(text)
			}
		}
	}
	for _, id := range w.model.TakeTouched() {
		if b, ok := w.model.Block(id); ok {
			w.syncBlock(b)
		}
	}
	for _, n := range w.notes {
		if n.session == w.sessionID { // a notice raised for another session shown before stays in the notices view only
			w.upsertNote(n.text)
		}
	}
	w.notes = nil
	w.runDueJobs() // a scheduled prompt that waited starts once nothing holds it (schedule.go)
	w.pump.setClock(w.turnRunning())
	if w.restore != "" {
		if w.input.GetText() == "" {
			w.input.SetText(w.restore, true)
		}
		w.restore = ""
	}
}

// syncBlock hands one block to the transcript view.
func (w *Workbench) syncBlock(b transcript.Block) {
	meta := b
	meta.Text = ""
	rec, seen := w.synced[b.ID]
	switch {
	case seen && rec.meta == meta && len(b.Text) == rec.n:
		return
	case seen && rec.meta == meta && len(b.Text) > rec.n:
		w.view.AppendText(b.ID, b.Text[rec.n:])
	default:
		w.view.Upsert(b)
	}
	w.synced[b.ID] = syncRecord{meta: meta, n: len(b.Text)}
}

// pendingNote is a line of the workbench's own waiting for the transcript,
// with the session shown when it was raised.
type pendingNote struct{ session, text string }

// addNote adds a line of the workbench's own to the transcript (not to the
// log) of the session shown now; raised before any session is shown (a
// config error at start), it goes to the first one.
func (w *Workbench) addNote(text string) {
	w.notes = append(w.notes, pendingNote{w.sessionID, text})
	if w.sessionID == "" {
		w.startNotes = append(w.startNotes, text)
	}
}

// upsertNote puts one note into the transcript view.
func (w *Workbench) upsertNote(text string) {
	w.noteSeq++
	w.view.Upsert(transcript.Block{ID: fmt.Sprintf("local:%d", w.noteSeq), Kind: transcript.KindNotice, Text: text, Done: true})
}
