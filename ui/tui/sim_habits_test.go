package tui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/agent"
	"pincer/core/provider/providertest"
)

// habitsBench starts a workbench on the agent's store, with its workspace
// as the project (Options.Cwd), attached to session sid.
func habitsBench(t *testing.T, ag *agent.Agent, root, sid string) *simBench {
	t.Helper()
	b := startBench(t, 120, 40, Options{Cwd: root})
	b.w.Attach(backendOf(ag), sid)
	b.waitText(shortID(sid) + " · ")
	b.waitFor("the history to load", func(string) bool {
		ready := false
		b.w.app.QueueUpdate(func() { ready = b.w.in.habitsReady })
		return ready
	})
	return b
}

// inputText is the input box's text, read on the event loop.
func (b *simBench) inputText() string {
	var s string
	b.w.app.QueueUpdate(func() { s = b.w.input.GetText() })
	return s
}

// waitInput waits until the input box holds want.
func (b *simBench) waitInput(want string) {
	b.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for b.inputText() != want {
		if time.Now().After(deadline) {
			b.t.Fatalf("input box = %q, want %q; screen:\n%s", b.inputText(), want, b.text())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// slowly types text as a person would: keys further apart than a paste's.
func (b *simBench) slowly(text string) {
	for _, r := range text {
		if r == '\n' {
			b.key(tcell.KeyEnter, 0, tcell.ModNone)
		} else {
			b.key(tcell.KeyRune, r, tcell.ModNone)
		}
		time.Sleep(2 * burstGap)
	}
}

// TestHistoryUpDownAndReopen: Up recalls the previous prompts (newest
// first), Down comes back to what was typed, and after quitting and
// reopening on the same project Up still recalls them; the unsent draft
// comes back too, though the workbench was quit with Ctrl+C twice.
func TestHistoryUpDownAndReopen(t *testing.T) {
	prov := &providertest.Scripted{}
	ag, root := newTestAgent(t, prov)
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b := habitsBench(t, ag, root, s.ID)
	for i, p := range []string{"first prompt", "second prompt"} {
		b.send(p)
		b.waitModel("the turn to end", func(m *Model) bool { return m.Status.Turns == i+1 && m.Status.Turn == TurnCompleted })
	}
	b.typeText("half")
	b.key(tcell.KeyUp, 0, tcell.ModNone)
	b.waitInput("second prompt")
	b.key(tcell.KeyUp, 0, tcell.ModNone)
	b.waitInput("first prompt")
	b.key(tcell.KeyUp, 0, tcell.ModNone) // the oldest: stays
	b.waitInput("first prompt")
	b.key(tcell.KeyDown, 0, tcell.ModNone)
	b.key(tcell.KeyDown, 0, tcell.ModNone)
	b.waitInput("half")
	b.typeText(" a thought")
	b.key(tcell.KeyCtrlC, 0, tcell.ModCtrl)
	b.key(tcell.KeyCtrlC, 0, tcell.ModCtrl)
	select {
	case err := <-b.done:
		b.done <- err
	case <-time.After(10 * time.Second):
		t.Fatal("Ctrl+C twice did not quit")
	}
	b.stop()

	b2 := habitsBench(t, ag, root, s.ID)
	b2.waitInput("half a thought")
	b2.w.app.QueueUpdate(func() { b2.w.input.SetText("", false) })
	b2.key(tcell.KeyUp, 0, tcell.ModNone)
	b2.waitInput("second prompt")
	b2.key(tcell.KeyUp, 0, tcell.ModNone)
	b2.waitInput("first prompt")

	// Sending from the box the draft came back into uses the draft: a third
	// workbench opened on the project (while the second still runs) gets
	// an empty box.
	b2.w.app.QueueUpdate(func() { b2.w.input.SetText("", false) })
	b2.send("third prompt")
	b2.waitModel("the turn to end", func(m *Model) bool { return m.Status.Turns == 3 && m.Status.Turn == TurnCompleted })
	be := backendOf(ag)
	deadline := time.Now().Add(10 * time.Second)
	for {
		d, err := be.Draft(t.Context(), root)
		if err != nil {
			t.Fatal(err)
		}
		if d == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the stored draft %q stayed after a prompt was sent from the box it came back into", d)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestHistoryUpOnlyOnFirstLine: in a multi-line box Up moves the cursor
// until it is on the first line, then recalls.
func TestHistoryUpOnlyOnFirstLine(t *testing.T) {
	b, _, _, _ := attached(t, 120, 40, &providertest.Scripted{})
	b.send("earlier")
	b.waitModel("the turn to end", func(m *Model) bool { return m.Status.Turn == TurnCompleted })
	b.typeText("one")
	b.key(tcell.KeyCtrlJ, 0, tcell.ModCtrl)
	b.typeText("two")
	b.waitInput("one\ntwo")
	b.key(tcell.KeyUp, 0, tcell.ModNone) // to the first line
	b.typeText("!")
	b.waitInput("one!\ntwo")
	b.w.app.QueueUpdate(func() { b.w.input.SetText("one\ntwo", false); b.w.input.Select(1, 1) })
	b.key(tcell.KeyUp, 0, tcell.ModNone)
	b.waitInput("earlier")
}

// TestHistorySearch: Ctrl+R filters the history by what is typed, Ctrl+R
// again goes older, Enter takes the match, Esc puts back the box.
func TestHistorySearch(t *testing.T) {
	b, _, _, _ := attached(t, 120, 40, &providertest.Scripted{})
	for i, p := range []string{"run the tests", "fix the lint", "run tests again"} {
		b.send(p)
		b.waitModel("the turn to end", func(m *Model) bool { return m.Status.Turns == i+1 && m.Status.Turn == TurnCompleted })
	}
	b.typeText("draft")
	b.key(tcell.KeyCtrlR, 0, tcell.ModCtrl)
	b.typeText("run")
	b.waitText("Search history: run")
	b.waitInput("run tests again")
	b.key(tcell.KeyCtrlR, 0, tcell.ModCtrl)
	b.waitInput("run the tests")
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	b.waitInput("draft")
	b.key(tcell.KeyCtrlR, 0, tcell.ModCtrl)
	b.typeText("lint")
	b.waitInput("fix the lint")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitFor("the search to close", func(s string) bool { return !strings.Contains(s, "Search history") })
	if got := b.inputText(); got != "fix the lint" {
		t.Fatalf("after Enter the box holds %q", got)
	}
	b.model(func(m *Model) {
		if m.Status.Turns != 3 {
			t.Errorf("Enter in the search sent a turn (%d turns)", m.Status.Turns)
		}
	})
}

// lines60 is a 60-line text.
func lines60() string {
	var sb strings.Builder
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&sb, "line %02d of the paste\n", i)
	}
	return sb.String()
}

// TestLargePastePlaceholder: a bracketed 60-line paste shows as
// `[Pasted 60 lines]`, text typed around it stays, the model gets the whole
// text in place of the placeholder, and the transcript shows the text.
func TestLargePastePlaceholder(t *testing.T) {
	prov := &providertest.Scripted{}
	b, _, _, _ := attached(t, 120, 40, prov)
	b.typeText("look: ")
	b.post(tcell.NewEventPaste(true))
	for _, r := range lines60() {
		if r == '\n' {
			b.key(tcell.KeyCtrlJ, 0, tcell.ModCtrl)
		} else {
			b.key(tcell.KeyRune, r, tcell.ModNone)
		}
	}
	b.post(tcell.NewEventPaste(false))
	b.waitInput("look: [Pasted 60 lines]")
	b.typeText(" thanks")
	b.waitText("look: [Pasted 60 lines] thanks")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitModel("the turn to end", func(m *Model) bool { return m.Status.Turn == TurnCompleted })
	got := prov.Request(0).Messages[len(prov.Request(0).Messages)-1].Text()
	if want := "look: " + lines60() + " thanks"; got != want {
		t.Fatalf("the model got %q, want %q", got, want)
	}
	b.waitText("line 60 of the paste")
}

// TestPastePlaceholderDeletedWhole: Backspace after the placeholder removes
// it and its paste as one unit.
func TestPastePlaceholderDeletedWhole(t *testing.T) {
	b, _, _, _ := attached(t, 120, 40, &providertest.Scripted{})
	b.typeText("a ")
	b.post(tcell.NewEventPaste(true))
	b.typeText(strings.Repeat("x", 1500))
	b.post(tcell.NewEventPaste(false))
	b.waitInput("a [Pasted 1500 chars]")
	b.key(tcell.KeyBackspace2, 0, tcell.ModNone)
	b.waitInput("a ")
	b.key(tcell.KeyBackspace2, 0, tcell.ModNone)
	b.waitInput("a")
}

// TestUnbracketedPasteIsOneMessage (Found 10): fifty lines arriving as keys,
// faster than a person types, with no paste brackets, become one message
// with its newlines, not fifty turns; sent by the Enter pressed after it.
func TestUnbracketedPasteIsOneMessage(t *testing.T) {
	prov := &providertest.Scripted{}
	b, _, _, _ := attached(t, 120, 40, prov)
	var want strings.Builder
	for i := 1; i <= 50; i++ {
		fmt.Fprintf(&want, "row %d\n", i)
	}
	for _, r := range want.String() {
		if r == '\n' {
			b.key(tcell.KeyEnter, 0, tcell.ModNone)
		} else {
			b.key(tcell.KeyRune, r, tcell.ModNone)
		}
	}
	// The pasted text's final newline is text: it waits in the box for Enter.
	// Keys the test sends block while a loaded event loop catches up, so the
	// first rows may arrive at a typist's pace and stay as typed text before the
	// burst is seen ("row 1\nrow 2[Pasted 49 lines]"): what must hold is that
	// nothing is sent before Enter and the one message has every row.
	b.waitText(" lines]")
	time.Sleep(10 * burstGap)
	if n := prov.Calls(); n != 0 {
		t.Fatalf("%d model requests before Enter, want 0", n)
	}
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitModel("the turn to end", func(m *Model) bool { return m.Status.Turn == TurnCompleted })
	time.Sleep(10 * burstGap)
	if n := prov.Calls(); n != 1 {
		t.Fatalf("%d model requests, want 1", n)
	}
	got := strings.TrimSuffix(prov.Request(0).Messages[len(prov.Request(0).Messages)-1].Text(), "\n")
	if w := strings.TrimSuffix(want.String(), "\n"); got != w {
		t.Fatalf("the model got %q, want %q", got, w)
	}
}

// TestTypedLinesStillSend: the same keys typed at a person's pace send each
// line (the burst detector must not swallow Enter).
func TestTypedLinesStillSend(t *testing.T) {
	prov := &providertest.Scripted{}
	b, _, _, _ := attached(t, 120, 40, prov)
	b.slowly("hi\n")
	b.waitModel("the turn to end", func(m *Model) bool { return m.Status.Turn == TurnCompleted })
	if got := prov.Request(0).Messages[len(prov.Request(0).Messages)-1].Text(); got != "hi" {
		t.Fatalf("the model got %q", got)
	}
}

// TestRetryFailedTurn: F5 sends the prompt of a failed turn again; after a
// turn that did not fail it says there is nothing to retry.
func TestRetryFailedTurn(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{
		{Err: errors.New("boom: the provider broke")},
		providertest.Text("it worked"),
	}}
	b, _, _, _ := attached(t, 120, 40, prov)
	b.send("do the thing")
	b.waitModel("the turn to fail", func(m *Model) bool { return m.Status.Turn == TurnFailed })
	b.typeText("kept")
	b.key(tcell.KeyF5, 0, tcell.ModNone)
	b.waitModel("the retry to end", func(m *Model) bool { return m.Status.Turn == TurnCompleted })
	b.waitText("it worked")
	if n := prov.Calls(); n < 2 {
		t.Fatalf("%d requests after F5", n)
	}
	last := prov.Request(prov.Calls() - 1)
	if got := last.Messages[len(last.Messages)-1].Text(); got != "do the thing" {
		t.Fatalf("the retry sent %q", got)
	}
	b.waitInput("kept")
	b.key(tcell.KeyF5, 0, tcell.ModNone)
	b.waitText("nothing to retry")
}

// TestPageKeysScrollTranscriptFromInput: PgUp in the input box scrolls the
// transcript (the focus stays in the box), PgDn comes back down.
func TestPageKeysScrollTranscriptFromInput(t *testing.T) {
	var long strings.Builder
	for i := 1; i <= 120; i++ {
		fmt.Fprintf(&long, "answer line %d\n\n", i)
	}
	prov := &providertest.Scripted{Steps: []providertest.Step{providertest.Text(long.String())}}
	b, _, _, _ := attached(t, 120, 40, prov)
	b.send("tell me a lot")
	b.waitModel("the turn to end", func(m *Model) bool { return m.Status.Turn == TurnCompleted })
	b.waitText("answer line 120")
	b.key(tcell.KeyPgUp, 0, tcell.ModNone)
	b.key(tcell.KeyPgUp, 0, tcell.ModNone)
	b.waitFor("the transcript to scroll up", func(s string) bool { return !strings.Contains(s, "answer line 120") })
	b.typeText("x")
	b.waitInput("x")
	b.key(tcell.KeyPgDn, 0, tcell.ModNone)
	b.key(tcell.KeyPgDn, 0, tcell.ModNone)
	b.key(tcell.KeyPgDn, 0, tcell.ModNone)
	b.waitText("answer line 120")
}
