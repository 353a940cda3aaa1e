package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTUIMemoryAddApprove is issue 16 in the real workbench, in tmux at
// 120x40: /memory add puts a feedback memory candidate in the approval
// queue (no file yet; the diff pane shows the file it would write), y
// pressed once it has been on screen writes the memory file and its
// MEMORY.md line, and nothing is left pending in the store (`pincer memory
// list --pending`): cmd_tui gives the Backend the Run's memory Manager.
func TestTUIMemoryAddApprove(t *testing.T) {
	e := newEnv(t)
	tm := newTmux(t, 120, 40, workbenchScript(t, e, "run"))
	tm.waitText("1 Transcript", "· idle")
	tm.typeText("/memory add always use tabs and pnpm")
	tm.keys("Enter")
	sc := tm.waitText("3 Approvals (1)", "Memory: add feedback", "+type: feedback")
	file := filepath.Join(e.projectMemoryDir(), "always-use-tabs-and-pnpm.md")
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Fatalf("the memory exists before the answer (%v)\n%s", err, sc)
	}
	time.Sleep(600 * time.Millisecond) // a person reads it (an answer needs it on screen 400 ms)
	tm.keys("y")                       // given 300 ms later: no letter follows
	deadline := time.Now().Add(10 * time.Second)
	for {
		data, err := os.ReadFile(file)
		if err == nil && strings.Contains(string(data), "type: feedback") && strings.Contains(string(data), "Always use tabs and pnpm.") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no memory file after y (%v): %q\n%s", err, data, tm.screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
	tm.waitText("3 Approvals (0) · 1 decided")
	index, err := os.ReadFile(filepath.Join(e.projectMemoryDir(), "MEMORY.md"))
	if err != nil || !strings.Contains(string(index), "[always use tabs and pnpm](always-use-tabs-and-pnpm.md)") {
		t.Fatalf("MEMORY.md (%v):\n%s", err, index)
	}
	if ids := e.pendingIDs(); len(ids) != 0 {
		t.Fatalf("still pending: %v", ids)
	}
}
