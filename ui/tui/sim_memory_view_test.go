package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	mem "pincer/core/memory"
)

// acceptedMemory proposes and accepts text as a memory of session sid
// through the Backend (as the queue's y does) and returns its file.
func acceptedMemory(t *testing.T, b *simBench, sid, text string) string {
	t.Helper()
	be := b.backend()
	c, err := be.ProposeMemory(context.Background(), sid, text)
	if err != nil {
		t.Fatal(err)
	}
	if c, err = be.DecideCandidate(context.Background(), sid, c.ID, mem.Decision{Action: mem.Accept}); err != nil {
		t.Fatal(err)
	}
	return c.Target
}

// TestMemoryViewEditsAndDeletes: /memory lists the memory; e opens its text
// in the editor and Ctrl+S saves the edit as an update candidate accepted in
// the same step (the store holds it, accepted and edited: the audit trail);
// d asks first, a y within approvalGrace of the question deletes nothing,
// and a y after it removes the file and its MEMORY.md line the same way.
func TestMemoryViewEditsAndDeletes(t *testing.T) {
	b, _, sid, m := memoryBench(t, 160, 50)
	target := acceptedMemory(t, b, sid, "the deploy script is scripts/ship.sh")
	b.send("/memory")
	b.waitText("Memory (1)", "scope   type      name — description", "project project   the deploy script is scriptsshipsh")
	b.typeText("e")
	b.waitText("Edit project memory “the deploy script is scriptsshipsh”", "The deploy script is scripts/ship.sh.")
	b.typeText(" Run it with --dry-run first.")
	b.key(tcell.KeyCtrlS, 0, tcell.ModNone)
	b.waitText("saved memory “the deploy script is scriptsshipsh”")
	data, err := os.ReadFile(target)
	if err != nil || !strings.Contains(string(data), "Run it with --dry-run first.") {
		t.Fatalf("edited file (%v):\n%s", err, data)
	}
	cs, err := m.Store.ListCandidates(context.Background(), mem.Filter{SessionID: sid})
	if err != nil {
		t.Fatal(err)
	}
	if last := cs[len(cs)-1]; len(cs) != 2 || last.Op != mem.OpUpdate || last.Status != mem.StatusAccepted || !last.Edited {
		t.Fatalf("candidates: %+v", cs)
	}

	b.waitText("Memory (1)")
	b.typeText("d")
	b.waitText("y deletes · n or Esc takes it back")
	b.typeText("y") // before a person could read the question
	b.waitText("read the question first")
	if _, err := os.Stat(target); err != nil {
		t.Fatalf("an early y deleted it: %v", err)
	}
	b.afterReading("y")
	b.waitText("deleted memory “the deploy script is scriptsshipsh”")
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Fatalf("after d y the file is still there: %v", err)
	}
	index, _ := os.ReadFile(filepath.Join(m.Paths().ProjectDir, mem.ProjectIndexName))
	if strings.Contains(string(index), "ship") {
		t.Fatalf("MEMORY.md still lists it:\n%s", index)
	}
	b.waitText("Memory (0)", "No memories yet")
}
