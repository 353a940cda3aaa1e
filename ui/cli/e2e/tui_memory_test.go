package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
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

// TestTUIRememberThatApprove is issue 16's must-show session in the real
// workbench: "remember that we use tabs and pnpm" runs its turn and leaves a
// candidate in the approval queue (no file); y writes the memory file and
// its MEMORY.md line; the running session's next request still has no
// memory (its prompt is frozen), and a new session's (/clear) carries the
// index.
func TestTUIRememberThatApprove(t *testing.T) {
	e := newEnv(t, openaitest.Reply{Text: "noted"})
	tm := newTmux(t, 120, 40, workbenchScript(t, e, "run"))
	tm.waitText("1 Transcript", "· idle")
	tm.typeText("remember that we use tabs and pnpm")
	tm.keys("Enter")
	sc := tm.waitText("noted", "3 Approvals (1)", "Memory: add project “we use tabs and pnpm”")
	file := filepath.Join(e.projectMemoryDir(), "we-use-tabs-and-pnpm.md")
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Fatalf("the memory exists before the answer (%v)\n%s", err, sc)
	}
	tm.keys("M-3")
	time.Sleep(600 * time.Millisecond)
	tm.keys("y")
	tm.waitText("3 Approvals (0) · 1 decided")
	line := "- [we use tabs and pnpm](we-use-tabs-and-pnpm.md) — We use tabs and pnpm.\n"
	if index := readPath(t, filepath.Join(e.projectMemoryDir(), "MEMORY.md")); index != line {
		t.Fatalf("MEMORY.md %q, want %q", index, line)
	}
	if !strings.Contains(readPath(t, file), "We use tabs and pnpm.") {
		t.Fatalf("memory file:\n%s", readPath(t, file))
	}

	e.fake.Push(openaitest.Reply{Text: "same session"})
	tm.keys("M-0")
	tm.typeText("and now?")
	tm.keys("Enter")
	tm.waitText("same session")
	if sys := systemText(e.fake.Requests()[1]); strings.Contains(sys, "# Memory") {
		t.Errorf("the running session's prompt changed:\n%s", sys)
	}
	e.fake.Push(openaitest.Reply{Text: "fresh reply"})
	tm.typeText("/clear")
	tm.keys("Enter")
	tm.waitText("new session ")
	tm.typeText("hello")
	tm.keys("Enter")
	tm.waitText("fresh reply")
	if sys := systemText(e.fake.Requests()[2]); !strings.Contains(sys, "# Memory") || !strings.Contains(sys, line) {
		t.Errorf("the new session's prompt lacks the memory:\n%s", sys)
	}
}
