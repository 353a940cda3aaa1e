package tui

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"pincer/core/agent"
	"pincer/core/event"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
)

// attached starts a workbench with an agent over prov and a fresh session.
func attached(t *testing.T, width, height int, prov *providertest.Scripted) (*simBench, *agent.Agent, string, string) {
	t.Helper()
	return attachedWith(t, width, height, prov, Options{})
}

// attachedWith is attached with the workbench's opts.
func attachedWith(t *testing.T, width, height int, prov *providertest.Scripted, opts Options) (*simBench, *agent.Agent, string, string) {
	t.Helper()
	b := startBench(t, width, height, opts)
	ag, root := newTestAgent(t, prov)
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b.w.Attach(backendOf(ag), s.ID)
	b.waitText(shortID(s.ID) + " · idle")
	return b, ag, s.ID, root
}

// send types a prompt and presses Enter.
func (b *simBench) send(prompt string) {
	b.key(tcell.KeyRune, '0', tcell.ModAlt)
	b.typeText(prompt)
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
}

// TestApprovalsFlow: a scripted turn reads a file, then asks to edit it twice.
// The diff pane shows the first edit before it is approved; y allows it; N
// with a typed reason denies the second, and the model receives the reason.
func TestApprovalsFlow(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "Read", `{"file_path":"a.txt"}`)),
		providertest.ToolCalls(providertest.ToolCall("c2", "Edit", `{"file_path":"a.txt","old_string":"hello","new_string":"HELLO"}`)),
		providertest.ToolCalls(providertest.ToolCall("c3", "Edit", `{"file_path":"a.txt","old_string":"world","new_string":"WORLD"}`)),
		{Events: providertest.TextEvents("All done.")},
	}}
	b, ag, sid, root := attached(t, 160, 50, prov)
	file := filepath.Join(root, "a.txt")
	if err := os.WriteFile(file, []byte("hello\nworld\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b.send("shout")
	s := b.waitText("3 Approvals (1)", "-hello", "+HELLO", "awaiting approval")
	if y, _ := rowOf(s, "+HELLO"); y < 0 {
		t.Fatalf("no would-be diff:\n%s", s)
	}
	if got, _ := os.ReadFile(file); string(got) != "hello\nworld\n" {
		t.Fatalf("the file changed before approval: %q", got)
	}
	b.key(tcell.KeyRune, '3', tcell.ModAlt)
	b.afterReading("y")
	b.waitText("-world", "+WORLD", "3 Approvals (1)")
	if got, _ := os.ReadFile(file); string(got) != "HELLO\nworld\n" {
		t.Fatalf("after y the file is %q", got)
	}
	b.afterReading("N")
	b.waitText("Reason for the model")
	b.typeText("use lower case")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitModel("the turn to end", func(m *Model) bool { return m.Status.Turn == TurnCompleted })
	s = b.waitText("3 Approvals (0)", "All done.")
	if got, _ := os.ReadFile(file); string(got) != "HELLO\nworld\n" {
		t.Errorf("a denied edit changed the file: %q", got)
	}
	b.model(func(m *Model) {
		if len(m.Timeline) != 3 || m.Timeline[0].Status != ToolDone || m.Timeline[1].Status != ToolDone || m.Timeline[2].Status != ToolDenied {
			t.Errorf("timeline = %+v", m.Timeline)
		}
	})
	var resolved []event.PermissionResolvedData
	for _, ev := range events(t, ag, sid) {
		if ev.Type == event.PermissionResolved {
			var d event.PermissionResolvedData
			_ = ev.Decode(&d)
			resolved = append(resolved, d)
		}
	}
	if len(resolved) != 2 || resolved[0].Decision != "allow" || resolved[0].By != "user" ||
		resolved[1].Decision != "deny" || resolved[1].Reason != "use lower case" {
		t.Errorf("resolutions = %+v", resolved)
	}
	last := prov.Request(prov.Calls() - 1)
	if !strings.Contains(fmtMessages(last), "use lower case") {
		t.Errorf("the model never got the reason:\n%s", fmtMessages(last))
	}
	// Replay equals live: a model built from the whole log, and a second
	// workbench attached after the fact, match the one that watched.
	b.model(func(live *Model) { assertSameModel(t, applyAll(events(t, ag, sid)), live) })
	late := startBench(t, 120, 40, Options{})
	late.w.Attach(backendOf(ag), sid)
	late.waitModel("the replay", func(m *Model) bool { return m.Status.Turn == TurnCompleted })
	late.model(func(replayed *Model) { b.model(func(live *Model) { assertSameModel(t, live, replayed) }) })
	late.waitText("All done.", "2 Timeline (3)")
}

func fmtMessages(req provider.Request) string {
	var out strings.Builder
	for _, m := range req.Messages {
		for _, p := range m.Parts {
			out.WriteString(string(m.Role) + ": " + p.Text + "\n")
		}
	}
	return out.String()
}

// TestEscCancelsTheRunningTurn, and a second Enter while it runs queues
// the prompt: the first Esc takes it back into the box, the second cancels.
func TestEscCancelsTheRunningTurn(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{{Events: []provider.Event{{Type: provider.EventTextDelta, Text: "thinking"}}, Block: true}}}
	b, _, _, _ := attached(t, 160, 50, prov)
	b.send("work forever")
	b.waitModel("the turn to run", func(m *Model) bool { return m.Status.Turn == TurnRunning })
	b.waitText("running", "a turn is running")
	b.typeText("again")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	// The queued prompt shows where it was typed (the box's placeholder)
	// and in the title; the notice says what happens to it in its own words,
	// not as a copy of the title (new user r22).
	b.waitText("queued «again»: sent when this turn ends", "Queued: again", "prompt queued: it is sent when this turn ends")
	var text string
	b.onLoop(func() { text = b.w.input.GetText() })
	if text != "" {
		t.Errorf("the queued prompt stayed in the box: %q", text)
	}
	if screen := b.text(); strings.Count(screen, "Input · queued") != 1 {
		t.Errorf("the box's title shows %d times (once is the title):\n%s", strings.Count(screen, "Input · queued"), screen)
	}
	b.key(tcell.KeyEscape, 0, tcell.ModNone) // takes the queued prompt back
	b.waitFor("Esc to give the queued prompt back", func(string) bool {
		b.onLoop(func() { text = b.w.input.GetText() })
		return text == "again"
	})
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	b.waitModel("the cancellation", func(m *Model) bool { return m.Status.Turn == TurnCancelled })
	b.waitText("cancelled")
	b.waitFor("the turn goroutine to end", func(string) bool {
		running := true
		b.onLoop(func() { running = b.w.running })
		return !running
	})
	if prov.Calls() != 1 {
		t.Errorf("%d model calls", prov.Calls())
	}
}

// TestPumpCoalescesLiveEvents: 1000 events pushed at the workbench as fast as
// the log takes them are drawn in far fewer frames (counted, not timed).
func TestPumpCoalescesLiveEvents(t *testing.T) {
	b, ag, sid, _ := attached(t, 160, 50, &providertest.Scripted{})
	start := b.w.pump.draws.Load()
	ctx := context.Background()
	for i := 0; i < 1000; i++ {
		if _, err := ag.Log().Emit(ctx, event.MessageDelta, sid, "t", event.MessageDeltaData{MessageID: "m", Delta: "word ", Kind: "text"}); err != nil {
			t.Fatal(err)
		}
	}
	b.waitModel("all events", func(m *Model) bool { return m.LastSequence == 1001 })
	if n := b.w.pump.draws.Load() - start; n > 200 {
		t.Errorf("%d frames for 1000 events", n)
	}
	b.model(func(m *Model) {
		if b, _ := m.Block("m"); len(b.Text) != 5000 {
			t.Errorf("streamed block has %d bytes", len(b.Text))
		}
	})
}

// TestNoGoroutineLeak: a workbench that ran a turn leaves nothing behind.
func TestNoGoroutineLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	func() {
		prov := &providertest.Scripted{Steps: []providertest.Step{providertest.ToolCalls(providertest.ToolCall("c1", "Write", `{"file_path":"n.txt","content":"x\n"}`))}}
		b, _, _, _ := attached(t, 100, 30, prov)
		b.send("write")
		b.waitText("3 Approvals (1)", "+x")
		b.key(tcell.KeyRune, '3', tcell.ModAlt)
		b.afterReading("n")
		b.waitModel("the turn", func(m *Model) bool { return m.Status.Turn == TurnCompleted })
		b.stop()
	}()
	waitUntil(t, "goroutines to end", func() bool { return runtime.NumGoroutine() <= before })
}

// TestPromptQueuedWhileTurnRuns: a prompt sent while a turn runs waits (the
// input box says so, and is empty) and is sent as the next turn when this
// one completes, as Claude Code and Crush queue it (new user r21 finding 8:
// it was refused).
func TestPromptQueuedWhileTurnRuns(t *testing.T) {
	gate := make(chan struct{}) // the first turn's answer waits until the second prompt is queued
	prov := &providertest.Scripted{Respond: func(n int, _ provider.Request) providertest.Step {
		if n == 1 {
			<-gate
			return providertest.Text("first answer")
		}
		return providertest.Text("second answer")
	}}
	b, _, _, _ := attached(t, 160, 50, prov)
	b.send("first")
	b.waitModel("the turn to run", func(m *Model) bool { return m.Status.Turn == TurnRunning })
	b.typeText("second")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitText("queued «second»: sent when this turn ends")
	close(gate)
	b.waitText("first answer", "second answer")
	if prov.Calls() != 2 || !strings.Contains(fmtMessages(prov.Request(1)), "user: second") {
		t.Errorf("the queued prompt was not the next turn: %d calls", prov.Calls())
	}
}
