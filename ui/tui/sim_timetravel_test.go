package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/agent"
	"pincer/core/app"
	"pincer/core/checkpoint"
	"pincer/core/permission"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/sandbox"
	"pincer/tools"
)

// newTravelAgent is newTestAgent with checkpoints recorded (core/checkpoint,
// as the composition root sets them up), in a workspace holding a.txt and
// b.txt.
func newTravelAgent(t *testing.T, prov provider.Provider) (*agent.Agent, string) {
	t.Helper()
	ws, err := sandbox.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"a.txt": "hello\nworld\n", "b.txt": "bee\n"} {
		if err := os.WriteFile(filepath.Join(ws.Root(), name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	store, queue := memory.New(), app.NewApprovalQueue()
	rec, err := checkpoint.New(store, ws.Root(), checkpoint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rec.Close() })
	ag, err := agent.New(agent.Config{Store: store, Provider: prov, Model: "m", ModelName: "fake/m",
		Tools: tools.Default(), Workspace: ws, SystemPrompt: "You are a test.", PermissionMode: permission.ModeDefault,
		Approver: queue, DeltaInterval: time.Millisecond, Checkpoints: rec})
	if err != nil {
		t.Fatal(err)
	}
	testBackends.Store(ag, &app.Backend{Agent: ag, Store: store, Approvals: queue})
	return ag, ws.Root()
}

// travelScript is two turns: a Read of a.txt, an Edit of it and a Write of
// new.txt, each asked about, then a text; then a second Edit of a.txt and a
// text.
func travelScript() *providertest.Scripted {
	return &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c0", "Read", `{"file_path":"a.txt"}`)),
		providertest.ToolCalls(providertest.ToolCall("c1", "Edit", `{"file_path":"a.txt","old_string":"hello","new_string":"HELLO"}`)),
		providertest.ToolCalls(providertest.ToolCall("c2", "Write", `{"file_path":"new.txt","content":"fresh\n"}`)),
		providertest.Text("Turn one done."),
		providertest.ToolCalls(providertest.ToolCall("c3", "Edit", `{"file_path":"a.txt","old_string":"world","new_string":"WORLD"}`)),
		providertest.Text("All done."),
	}}
}

// liveFrame is a frame a live workbench showed, at the log's sequence seq.
type liveFrame struct {
	seq    uint64
	screen string
	focus  int
}

// settle waits until the workbench has folded the whole log so far (the
// turn waits for an answer, or has ended, so no event comes) and drawn it,
// and returns the log's last sequence.
func (b *simBench) settle(ag *agent.Agent, sid string) uint64 {
	b.t.Helper()
	last, err := ag.Log().LastSequence(b.t.Context(), sid)
	if err != nil {
		b.t.Fatal(err)
	}
	b.waitModel(fmt.Sprintf("sequence %d", last), func(m *Model) bool { return m.LastSequence == last })
	<-b.w.pump.afterDraw()
	return last
}

// TestTimeTravelReplaysLiveFrames is the replay test: a live scripted
// session on a SimulationScreen is captured at each point it stops (a
// request waits, a turn ended); a fresh workbench then opens the session
// from the browser with Ctrl+B, travels to each of those sequences with the
// keys, and must show the same frame — but for the rows that legitimately
// differ: the status line (its "time travel · seq N/M" marker and cursor
// bar instead of the live session's ID and clock) and the key bar (the
// travel keys lead it; the approval keys do not, nothing is answerable).
func TestTimeTravelReplaysLiveFrames(t *testing.T) {
	prov := travelScript()
	b := startBench(t, 120, 40, Options{})
	ag, root := newTravelAgent(t, prov)
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b.w.Attach(backendOf(ag), s.ID)
	b.waitText(shortID(s.ID) + " · idle")
	var frames []liveFrame
	capture := func() {
		seq := b.settle(ag, s.ID)
		frames = append(frames, liveFrame{seq, b.text(), b.focus()})
	}
	// The answers go through the backend, not the keys: a key's answer adds
	// a line of the workbench's own to the transcript ("allowed once: …"),
	// which is not in the log.
	allow := func() {
		var req string
		b.waitModel("a pending request", func(m *Model) bool {
			if len(m.Approvals) == 1 {
				req = m.Approvals[0].RequestID
			}
			return req != ""
		})
		if err := backendOf(ag).Resolve(req, permission.Allow, permission.ScopeOnce, ""); err != nil {
			t.Fatal(err)
		}
		b.waitModel("the answer", func(m *Model) bool { _, still := m.Approval(req); return !still })
	}
	b.send("first turn")
	b.waitText("3 Approvals (1)", "+HELLO")
	capture()
	allow()
	b.waitText("3 Approvals (1)", "+fresh")
	capture()
	allow()
	b.waitModel("turn 1's end", func(m *Model) bool { return m.Status.Turn == TurnCompleted })
	b.waitText("Turn one done.")
	capture()
	b.send("second turn")
	b.waitText("3 Approvals (1)", "+WORLD")
	capture()
	allow()
	b.waitModel("turn 2's end", func(m *Model) bool { return m.Status.Turn == TurnCompleted && m.Status.Turns == 2 })
	b.waitText("All done.")
	capture()
	if got, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(got) != "HELLO\nWORLD\n" {
		t.Fatalf("a.txt = %q", got)
	}
	evs := events(t, ag, s.ID)

	// A fresh workbench on the same store, with a live session of its own.
	late := startBench(t, 120, 40, Options{})
	other, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	late.w.Attach(backendOf(ag), other.ID)
	late.waitText(shortID(other.ID) + " · idle")
	late.key(tcell.KeyCtrlO, 0, tcell.ModNone)
	late.waitText("first turn")
	late.typeText("first turn")
	late.key(tcell.KeyCtrlB, 0, tcell.ModNone)
	late.waitText(fmt.Sprintf("time travel · seq %d/%d", evs[len(evs)-1].Sequence, evs[len(evs)-1].Sequence))
	late.typeText("ddd") // the diff pane as the session showed it, not the workspace's changes
	pos := len(evs)
	for _, f := range frames {
		want := -1
		for i, ev := range evs {
			if ev.Sequence == f.seq {
				want = i + 1
			}
		}
		for ; pos > want; pos-- {
			late.typeText("[")
		}
		for ; pos < want; pos++ {
			late.typeText("]")
		}
		late.waitText(fmt.Sprintf("seq %d/%d", f.seq, evs[len(evs)-1].Sequence))
		late.key(tcell.KeyRune, focusKeys[f.focus], tcell.ModAlt) // where the live one's focus was
		got := late.settleTravel(f.focus)
		if diff := frameDiff(f.screen, got, legitTravelRows); diff != "" {
			t.Errorf("seq %d: the travelled frame differs from the live one:\n%s\nlive:\n%s\ntravelled:\n%s", f.seq, diff, f.screen, got)
		}
	}
}

// focusKeys are the Alt+digit keys that focus each pane.
var focusKeys = map[int]rune{paneTranscript: '1', paneTimeline: '2', paneApprovals: '3', paneDiff: '4', paneInput: '0'}

// settleTravel waits for the focus on pane (the last key), then for a frame
// drawn after it, and returns the screen.
func (b *simBench) settleTravel(pane int) string {
	b.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for focus := -1; focus != pane; {
		b.onLoop(func() { focus = b.w.focus })
		if time.Now().After(deadline) {
			b.t.Fatalf("the focus never reached pane %d", pane)
		}
	}
	<-b.w.pump.afterDraw()
	return b.text()
}

// legitTravelRows says which rows of a frame may differ between a live
// session and time travel to the same sequence: the status line and the key
// bar, found by what they hold, and the approvals pane's title while a
// request was pending (live it names the answer keys; travelled, nothing is
// answerable: "pending then").
func legitTravelRows(live, travelled string) bool {
	if strings.Contains(travelled, "time travel ") || strings.HasPrefix(strings.TrimSpace(travelled), "[ ") {
		return true
	}
	return approvalsTitle.ReplaceAllString(live, "3 Approvals") == approvalsTitle.ReplaceAllString(travelled, "3 Approvals")
}

// approvalsTitle matches the approvals pane's title, whatever follows its
// count, up to the border.
var approvalsTitle = regexp.MustCompile(`3 Approvals \([^)]*\)[^─═┐╗]*[─═]*`)

// frameDiff lists the rows of two frames that differ, but for those legit
// allows; "" when none.
func frameDiff(a, b string, legit func(a, b string) bool) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out strings.Builder
	for i := 0; i < max(len(al), len(bl)); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y && !legit(x, y) {
			fmt.Fprintf(&out, "row %d:\n  live:      %q\n  travelled: %q\n", i, x, y)
		}
	}
	return out.String()
}
