package tui

import (
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// TestFocusMovedInsideAFrame: background work drained inside tview's draw (a
// held approval answer opening the reason field, a session switch) that moves
// the focus must not call Application.SetFocus there — it takes the lock the
// draw holds, and the event loop hung for good (seen in TestApprovalsFlow
// under -race). The move shows in the frame, and tview follows at the next key.
func TestFocusMovedInsideAFrame(t *testing.T) {
	b := startBench(t, 160, 50, Options{})
	b.waitText("1 Transcript", "F1 help")
	// A message that arrived after the last drain (no frame asked for yet: as
	// a timer's between a key and the draw after it), then a draw of tview's
	// own — a resize — whose sync drains it inside the draw.
	p := b.w.pump
	p.inboxMu.Lock()
	p.inbox = append(p.inbox, message{run: func() { b.w.setFocus(paneTimeline) }})
	p.inboxMu.Unlock()
	b.sim.SetSize(150, 45)
	b.post(tcell.NewEventResize(150, 45))
	for drained := false; !drained; time.Sleep(5 * time.Millisecond) {
		p.inboxMu.Lock()
		drained = len(p.inbox) == 0
		p.inboxMu.Unlock()
	}
	done := make(chan int, 1)
	go func() {
		var f int
		b.onLoop(func() { f = b.w.focus })
		done <- f
	}()
	select {
	case f := <-done:
		if f != paneTimeline {
			t.Fatalf("focus = %d after the posted move, want the timeline (%d)", f, paneTimeline)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the event loop hung: the focus move inside the frame deadlocked")
	}
	b.key(tcell.KeyRune, 'j', tcell.ModNone) // the next key brings tview's record in step
	var focused bool
	deadline := time.Now().Add(10 * time.Second)
	for !focused && time.Now().Before(deadline) {
		b.onLoop(func() { focused = b.w.app.GetFocus() == b.w.timeline && b.w.frame.pending == nil })
		time.Sleep(20 * time.Millisecond)
	}
	if !focused {
		t.Fatal("tview's focus did not follow the frame's move at the next key")
	}
}
