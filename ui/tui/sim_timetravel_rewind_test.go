package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// TestTimeTravelStepRewinds: R at a time-travel step of a past session
// turns the step into a rewind: before the first turn it says there is
// nothing to rewind; at a step of turn 1 it resumes the session and opens
// turn 1's choice (not the last turn's); "Restore code" then waits in the
// approval queue and, allowed, takes the files of both turns away.
func TestTimeTravelStepRewinds(t *testing.T) {
	b, _, origin, root := rewindSession(t)
	be := b.backend()
	own, err := be.Agent.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b.w.Attach(be, own.ID)
	b.waitText(shortID(own.ID) + " · idle")
	b.key(tcell.KeyCtrlO, 0, tcell.ModNone)
	b.waitText("the first prompt")
	b.typeText("the first prompt")
	b.key(tcell.KeyCtrlB, 0, tcell.ModNone)
	b.waitText("turn 2/2")

	b.typeText("<")
	b.waitText("turn 0/2")
	b.typeText("R")
	b.waitText("nothing to rewind")

	b.typeText("}")
	b.waitText("turn 1/2")
	b.typeText("R")
	s := b.waitText("to before turn 1: what to restore?", "3. Restore code")
	if strings.Contains(s, "to before turn 2") {
		t.Fatalf("R opened the last turn's choice:\n%s", s)
	}
	var live string
	var readOnly bool
	b.onLoop(func() { live, readOnly = b.w.liveID, b.w.readOnly })
	if live != origin || readOnly {
		t.Fatalf("the tab shows %s (read-only %v), want the resumed %s", live, readOnly, origin)
	}
	b.typeText("3")
	b.enter()
	b.waitText("3 Approvals (1)", "? Rewind: restore 3 files to before turn 1")
	if readFile(root, "f.txt") != "eff\n" {
		t.Fatal("f.txt changed before the approval")
	}
	b.key(tcell.KeyRune, '3', tcell.ModAlt)
	time.Sleep(approvalGrace + 100*time.Millisecond) // a person reads the request first
	b.typeText("y")
	b.waitModel("the rewind to end", func(m *Model) bool { return len(m.Approvals) == 0 })
	deadline := time.Now().Add(10 * time.Second)
	for _, name := range []string{"f.txt", "g.txt", "h.txt"} {
		for readFile(root, name) != "<absent>" && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if got := readFile(root, name); got != "<absent>" {
			t.Errorf("%s after the code rewind to before turn 1: %q", name, got)
		}
	}
}
