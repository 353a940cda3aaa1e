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
// pump's QueueUpdateDraw). Only the tabs on the screen are synced; a
// hidden tab's model keeps its touched blocks for when it is shown.
func (w *Workbench) syncFrame() {
	w.frame.inFrame = true
	defer func() { w.frame.inFrame = false }()
	w.pump.drain() // the background work's messages, in order
	w.syncApprovalFocus()
	for _, t := range w.shownTabs() {
		w.syncTab(t)
	}
	w.routeNotes()
	w.runDueJobs() // a scheduled prompt that waited starts once nothing holds it (schedule.go)
	w.pump.setClock(w.turnRunning())
	if w.restore != "" && w.input.GetText() == "" {
		w.input.SetText(w.restore, true)
		w.restore = ""
	}
}

// shownTabs are the tabs whose transcripts are on the screen: the shown
// tab (and, in the split view, its partner).
func (w *Workbench) shownTabs() []*sessionTab {
	if w.split != nil {
		return []*sessionTab{w.sessionTab, w.split}
	}
	return []*sessionTab{w.sessionTab}
}

// syncTab brings tab t's transcript view in step with its model.
func (w *Workbench) syncTab(t *sessionTab) {
	if t.resetView {
		t.resetView = false
		hadFocus := t == w.sessionTab && w.focus == paneTranscript
		t.view = w.newTranscriptView()
		clear(t.synced)
		if hadFocus {
			w.focusWidget(t.view)
		}
		for _, b := range t.model.Blocks {
			t.syncBlock(b)
		}
		t.model.TakeTouched()
		if !w.startNotesShown { // the first session shown gets the notices of the start (config errors)
			w.startNotesShown = true
			for _, text := range w.startNotes {
				w.upsertNote(t, text)
			}
		}
	}
	for _, id := range t.model.TakeTouched() {
		if b, ok := t.model.Block(id); ok {
			t.syncBlock(b)
		}
	}
}

// routeNotes puts each waiting note into the transcript of the tab showing
// its session; a notice raised for a session no tab shows any more stays in
// the notices view only.
func (w *Workbench) routeNotes() {
	for _, n := range w.notes {
		if t := w.tabOf(n.session); t != nil {
			w.upsertNote(t, n.text)
		}
	}
	w.notes = nil
}

// syncBlock hands one block to the tab's transcript view.
func (t *sessionTab) syncBlock(b transcript.Block) {
	meta := b
	meta.Text = ""
	rec, seen := t.synced[b.ID]
	switch {
	case seen && rec.meta == meta && len(b.Text) == rec.n:
		return
	case seen && rec.meta == meta && len(b.Text) > rec.n:
		t.view.AppendText(b.ID, b.Text[rec.n:])
	default:
		t.view.Upsert(b)
	}
	t.synced[b.ID] = syncRecord{meta: meta, n: len(b.Text)}
}

// pendingNote is a line of the workbench's own waiting for the transcript,
// with the session shown when it was raised.
type pendingNote struct{ session, text string }

// addNote adds a line of the workbench's own to the transcript (not to the
// log) of the session shown now; raised before any session is shown (a
// config error at start), it goes to the first one.
func (w *Workbench) addNote(text string) { w.addNoteFor(w.sessionTab, text) }

// addNoteFor adds a line of the workbench's own to tab t's transcript (of
// the session t shows now).
func (w *Workbench) addNoteFor(t *sessionTab, text string) {
	w.notes = append(w.notes, pendingNote{t.sessionID, text})
	if t.sessionID == "" {
		w.startNotes = append(w.startNotes, text)
	}
}

// upsertNote puts one note into tab t's transcript view.
func (w *Workbench) upsertNote(t *sessionTab, text string) {
	w.noteSeq++
	t.view.Upsert(transcript.Block{ID: fmt.Sprintf("local:%d", w.noteSeq), Kind: transcript.KindNotice, Text: text, Done: true})
}
