package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/agent"
	"pincer/core/app"
	"pincer/core/checkpoint"
	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/sandbox"
	"pincer/tools"
)

// rewindAgent is newTestAgent with checkpoints recorded and file tools
// allowed (acceptEdits): turns change files without asking.
func rewindAgent(t *testing.T, prov *providertest.Scripted) (*agent.Agent, string) {
	t.Helper()
	ws, err := sandbox.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	store, queue := memory.New(), app.NewApprovalQueue()
	rec, err := checkpoint.New(store, ws.Root(), checkpoint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rec.Close() })
	ag, err := agent.New(agent.Config{Store: store, Provider: prov, Model: "m", ModelName: "fake/m",
		Tools: tools.Default(), Workspace: ws, SystemPrompt: "You are a test.", PermissionMode: permission.ModeAcceptEdits,
		Approver: queue, DeltaInterval: time.Millisecond, Checkpoints: rec})
	if err != nil {
		t.Fatal(err)
	}
	testBackends.Store(ag, &app.Backend{Agent: ag, Store: store, Approvals: queue})
	return ag, ws.Root()
}

// rewindSession runs two turns in a workbench: the first Writes f.txt, the
// second g.txt and h.txt.
func rewindSession(t *testing.T) (*simBench, *providertest.Scripted, string, string) {
	t.Helper()
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "Write", `{"file_path":"f.txt","content":"eff\n"}`)),
		providertest.Text("one done"),
		providertest.ToolCalls(providertest.ToolCall("c2", "Write", `{"file_path":"g.txt","content":"gee\n"}`),
			providertest.ToolCall("c3", "Write", `{"file_path":"h.txt","content":"aitch\n"}`)),
		providertest.Text("two done"),
		providertest.Text("the branch answer"),
	}}
	b := startBench(t, 140, 44, Options{})
	ag, root := rewindAgent(t, prov)
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b.w.Attach(backendOf(ag), s.ID)
	b.waitText(shortID(s.ID) + " · idle")
	b.send("the first prompt")
	b.waitText("one done")
	b.send("the second prompt")
	b.waitText("two done")
	b.waitModel("the turn to end", func(m *Model) bool { return m.Status.Turn == TurnCompleted && m.Status.Turns == 2 })
	return b, prov, s.ID, root
}

// readFile is a file of root's content ("<absent>" when it is not there).
func readFile(root, name string) string {
	b, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		return "<absent>"
	}
	return string(b)
}

// TestRewindFromTheWorkbench: Esc Esc on the empty input box lists the
// turns; Enter on the second and Enter on "Restore code and conversation"
// puts a Rewind row in the approval queue whose diff pane shows the restore
// and names the hand-edited h.txt; y restores g.txt (nothing is touched
// before); the second, louder row for h.txt is denied with n, so the hand
// edit stays; the tab then shows the branch, whose next request lacks the
// rewound turn, and the old session is still listed.
func TestRewindFromTheWorkbench(t *testing.T) {
	b, prov, origin, root := rewindSession(t)
	if err := os.WriteFile(filepath.Join(root, "h.txt"), []byte("by hand\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	s := b.waitText("Rewind — restore the code and/or conversation", "the first prompt", "the second prompt", "2 files: g.txt, h.txt")
	if y1, _ := rowOf(s, "the first prompt"); y1 < 0 || !strings.Contains(s, "▸   2") {
		t.Fatalf("the list should select the last turn:\n%s", s)
	}
	b.enter()
	b.waitText("to before turn 2: what to restore?", "1. Restore code and conversation", "2. Restore conversation", "3. Restore code", "4. Never mind",
		"From turn 2 on, pincer changed 2 files: g.txt, h.txt")
	b.enter()
	s = b.waitText("3 Approvals (1)", "? Rewind: restore 2 files to before turn 2", "# h.txt: changed outside pincer", "-gee")
	if readFile(root, "g.txt") != "gee\n" {
		t.Fatal("g.txt changed before the approval")
	}
	b.send("typed while it waits")
	b.waitText("a rewind is under way")
	b.key(tcell.KeyCtrlU, 0, tcell.ModNone)
	b.key(tcell.KeyRune, '3', tcell.ModAlt)
	time.Sleep(approvalGrace + 100*time.Millisecond) // a person reads the request first
	b.typeText("y")
	b.waitText("Rewind: OVERWRITE 1 file changed outside", "-by hand")
	if readFile(root, "g.txt") != "<absent>" {
		t.Fatalf("g.txt after the first approval: %q", readFile(root, "g.txt"))
	}
	time.Sleep(approvalGrace + 100*time.Millisecond)
	b.typeText("n")
	b.waitText("rewind: kept 1 file changed outside pincer", "the conversation continues in branch")
	if readFile(root, "h.txt") != "by hand\n" || readFile(root, "f.txt") != "eff\n" {
		t.Fatalf("h.txt %q f.txt %q", readFile(root, "h.txt"), readFile(root, "f.txt"))
	}
	var live string
	b.onLoop(func() { live = b.w.liveID })
	if live == origin {
		t.Fatal("the tab still shows the origin after a conversation rewind")
	}
	b.waitText(shortID(live)+" · done", "the first prompt", "one done") // the branch shows turn 1, as it ended
	b.send("the branch prompt")
	b.waitText("the branch answer")
	last := fmt.Sprintf("%+v", prov.Request(prov.Calls()-1).Messages)
	if strings.Contains(last, "the second prompt") || !strings.Contains(last, "the first prompt") || !strings.Contains(last, "the branch prompt") {
		t.Fatalf("the branch's request: %s", last)
	}
	list, err := b.backend().Sessions(t.Context(), 0)
	if err != nil || len(list) != 2 {
		t.Fatalf("sessions: %+v %v", list, err)
	}
}

// TestRewindNeverMindAndTurnOne: /rewind 1 opens turn 1's choice, where
// "Restore conversation" alone is unavailable (nothing is before turn 1);
// Never mind closes with nothing changed; Esc Esc with text in the box
// opens nothing.
func TestRewindNeverMindAndTurnOne(t *testing.T) {
	b, _, _, root := rewindSession(t)
	b.slash("/rewind 1")
	b.waitText("to before turn 1: what to restore?", "2. Restore conversation — nothing is before turn 1")
	b.key(tcell.KeyRune, '2', tcell.ModNone)
	b.enter()
	b.waitText("rewind: nothing is before turn 1")
	b.key(tcell.KeyRune, '4', tcell.ModNone)
	b.enter()
	b.waitText("rewind: nothing changed")
	if readFile(root, "f.txt") != "eff\n" || readFile(root, "g.txt") != "gee\n" {
		t.Fatal("never mind changed files")
	}
	b.typeText("draft")
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	var open bool
	b.onLoop(func() { open = b.w.rw.open })
	if open {
		t.Fatal("Esc Esc with text in the box opened the rewind view")
	}
}

// TestRewindTurnOneCodeAndConversation: /rewind 1's "Restore code and
// conversation" says in its row that it restores the code only (nothing is
// before turn 1), and once allowed the notice says the conversation was
// kept; the tab stays on the session (no branch).
func TestRewindTurnOneCodeAndConversation(t *testing.T) {
	b, _, origin, root := rewindSession(t)
	b.slash("/rewind 1")
	b.waitText("to before turn 1: what to restore?", "1. Restore code and conversation — the code only: the conversation is kept")
	b.enter()
	b.waitText("3 Approvals (1)", "? Rewind: restore 3 files to before turn 1")
	b.key(tcell.KeyRune, '3', tcell.ModAlt)
	time.Sleep(approvalGrace + 100*time.Millisecond) // a person reads the request first
	b.typeText("y")
	b.waitText("rewind: restored 3 files to before turn 1: f.txt, g.txt, h.txt; the conversation is kept, as nothing is before turn 1")
	if readFile(root, "f.txt") != "<absent>" {
		t.Fatalf("f.txt after the rewind: %q", readFile(root, "f.txt"))
	}
	var live string
	b.onLoop(func() { live = b.w.liveID })
	if live != origin {
		t.Fatalf("the tab shows %s, want the session %s (no branch before turn 1)", live, origin)
	}
}
