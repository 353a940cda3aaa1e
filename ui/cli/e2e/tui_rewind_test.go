package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
)

// TestTUIRewindEndToEnd is issue 15's workbench rewind through the real
// binary in tmux on a real git repository: a turn Writes a new file, Edits
// hello.txt and runs a command that creates a third; Esc Esc lists the turn,
// Enter twice asks to restore code and conversation, and the Rewind row
// waits in the approval queue with nothing changed until y; then the tree is
// the commit's again (`git status --porcelain` empty, hello.txt byte for
// byte; before turn 1 there is no conversation to branch).
func TestTUIRewindEndToEnd(t *testing.T) {
	e := newEnv(t,
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c0", Name: "Read", Args: `{"file_path":"hello.txt"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{
			{ID: "c1", Name: "Write", Args: `{"file_path":"notes.txt","content":"noted\n"}`},
			{ID: "c2", Name: "Edit", Args: `{"file_path":"hello.txt","old_string":"world","new_string":"pincer"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c3", Name: "Bash", Args: `{"command":"printf 'made\\n' > made.txt"}`}}},
		openaitest.Reply{Text: "all three done"},
	)
	original := e.read("hello.txt")
	tm := newTmux(t, 120, 40, workbenchScript(t, e, "rewind", "--permission-mode", "acceptEdits"))
	tm.waitText("1 Transcript", "· idle")
	tm.typeText("change three things")
	tm.keys("Enter")
	tm.waitText("3 Approvals (1)", "Bash")
	time.Sleep(600 * time.Millisecond) // a person reads the request (an answer needs it on screen 400 ms)
	tm.keys("y")
	tm.waitText("all three done")
	if e.read("made.txt") != "made\n" || e.read("notes.txt") != "noted\n" || e.read("hello.txt") != "hello pincer\n" {
		t.Fatalf("the turn's files: %q %q %q", e.read("made.txt"), e.read("notes.txt"), e.read("hello.txt"))
	}

	tm.keys("Escape")
	time.Sleep(150 * time.Millisecond) // two keys, not one Alt+Esc
	tm.keys("Escape")
	tm.waitText("Rewind — restore the code and/or conversation", "change three things")
	tm.keys("Enter")
	tm.waitText("to before turn 1: what to restore?")
	tm.keys("Enter")
	sc := tm.waitText("? Rewind: restore 3 files to before turn 1")
	if e.read("made.txt") != "made\n" {
		t.Fatalf("made.txt went before the approval\n%s", sc)
	}
	time.Sleep(600 * time.Millisecond)
	tm.keys("y")
	deadline := time.Now().Add(20 * time.Second)
	for exists(filepath.Join(e.repo, "made.txt")) || exists(filepath.Join(e.repo, "notes.txt")) || e.read("hello.txt") != original {
		if time.Now().After(deadline) {
			t.Fatalf("the rewind left: %s\n%s", git(t, e.repo, "status", "--porcelain"), tm.screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if st := git(t, e.repo, "status", "--porcelain"); strings.TrimSpace(st) != "" {
		t.Errorf("git status after the rewind:\n%s", st)
	}
	// before turn 1 a branch would be empty: the code only is restored
	tm.waitText("rewind: restored 3 files to before turn 1: hello.txt, made.txt, notes.txt")
}
