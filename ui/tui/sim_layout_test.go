package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/provider"
	"pincer/core/provider/providertest"
)

// lines splits a screen into rows.
func lines(screen string) []string { return strings.Split(screen, "\n") }

// rowOf returns the row and column where text first appears, or -1, -1.
func rowOf(screen, text string) (int, int) {
	for y, l := range lines(screen) {
		if x := strings.Index(l, text); x >= 0 {
			return y, len([]rune(l[:x]))
		}
	}
	return -1, -1
}

// onLoop runs f on the event loop and waits for it.
func (b *simBench) onLoop(f func()) { b.w.app.QueueUpdate(f) }

func (b *simBench) focus() int {
	var f int
	b.onLoop(func() { f = b.w.focus })
	return f
}

func TestLayoutWide(t *testing.T) {
	b := startBench(t, 160, 50, Options{})
	s := b.waitText("1 Transcript", "2 Timeline (0)", "3 Approvals (0)", "4 Diff", "opening store…", "F1 help")
	ty, tx := rowOf(s, "1 Transcript")
	ly, lx := rowOf(s, "2 Timeline")
	ay, ax := rowOf(s, "3 Approvals")
	dy, dx := rowOf(s, "4 Diff")
	if ty != 0 || tx > 4 || ly != 0 || lx < 96 || ax != lx || dx != lx || !(ly < ay && ay < dy) {
		t.Errorf("wide layout: transcript %d,%d timeline %d,%d approvals %d,%d diff %d,%d\n%s", ty, tx, ly, lx, ay, ax, dy, dx, s)
	}
	if y, _ := rowOf(s, "opening store…"); y != 48 {
		t.Errorf("status line on row %d, want 48", y)
	}
	if y, _ := rowOf(s, "F1 help"); y != 49 {
		t.Errorf("help bar on row %d, want 49", y)
	}
}

// Found (issue 12): at 80x24 the transcript got 5 rows. It keeps at least
// half the terminal's rows; the other three panes share the rest below it.
func TestLayoutNarrowKeepsHalfForTheTranscriptAndResizes(t *testing.T) {
	b := startBench(t, 80, 24, Options{})
	s := b.waitText("1 Transcript", "2 Timeline", "3 Approvals", "4 Diff")
	ty, _ := rowOf(s, "1 Transcript")
	end := -1 // the transcript's bottom border: the first └ of column 0 below its top
	for y, l := range lines(s) {
		if y > ty && strings.HasPrefix(l, "└") {
			end = y
			break
		}
	}
	if ty != 0 || end+1 < 12 {
		t.Errorf("transcript on rows %d..%d: fewer than 12 of 24\n%s", ty, end, s)
	}
	for _, title := range []string{"2 Timeline", "3 Approvals", "4 Diff"} {
		if y, _ := rowOf(s, title); y <= end {
			t.Errorf("%s on row %d, not below the transcript (ends on %d)\n%s", title, y, end, s)
		}
	}
	b.sim.SetSize(160, 50)
	b.post(tcell.NewEventResize(160, 50))
	b.waitFor("the wide layout after a resize", func(s string) bool {
		y, x := rowOf(s, "2 Timeline")
		return y == 0 && x >= 96
	})
	b.sim.SetSize(30, 6) // tiny: nothing may panic
	b.post(tcell.NewEventResize(30, 6))
	b.waitFor("a tiny frame", func(s string) bool { return len(lines(s)) >= 6 && !strings.Contains(s, "2 Timeline") })
}

func TestZoomAndBack(t *testing.T) {
	b := startBench(t, 160, 50, Options{})
	b.waitText("4 Diff")
	b.key(tcell.KeyRune, '4', tcell.ModAlt)
	b.typeText("z")
	s := b.waitText("4 Diff [zoomed]")
	if strings.Contains(s, "1 Transcript") || strings.Contains(s, "2 Timeline") {
		t.Errorf("zoomed screen still shows other panes:\n%s", s)
	}
	if y, x := rowOf(s, "4 Diff"); y != 0 || x > 4 {
		t.Errorf("zoomed diff at %d,%d", y, x)
	}
	b.key(tcell.KeyTab, 0, tcell.ModNone) // focus moves to the input: the zoom stays
	b.key(tcell.KeyRune, '4', tcell.ModAlt)
	b.key(tcell.KeyBacktab, 0, tcell.ModNone) // approvals: the zoom follows the focus
	b.waitText("3 Approvals (0) [zoomed]")
	b.key(tcell.KeyEscape, 0, tcell.ModNone) // no turn runs: Esc leaves the zoom
	b.waitText("1 Transcript", "2 Timeline", "3 Approvals (0) ", "4 Diff")
	b.typeText("z")
	b.waitText("3 Approvals (0) [zoomed]")
	b.typeText("z")
	b.waitText("1 Transcript", "4 Diff")
}

func TestTabCyclesFocusOverTheInputBox(t *testing.T) {
	b := startBench(t, 160, 50, Options{})
	b.waitText("1 Transcript")
	if f := b.focus(); f != paneInput {
		t.Fatalf("initial focus %d, want the input", f)
	}
	want := []int{paneTranscript, paneTimeline, paneApprovals, paneDiff, paneInput}
	for _, w := range want {
		b.key(tcell.KeyTab, 0, tcell.ModNone)
		b.waitFor("focus to move", func(string) bool { return b.focus() == w })
		var focused bool
		b.onLoop(func() { focused = b.w.app.GetFocus() == b.w.pane(w) })
		if !focused {
			t.Errorf("pane %d is focus but tview's focus differs", w)
		}
	}
	b.key(tcell.KeyBacktab, 0, tcell.ModNone) // in the input box: the permission mode, not the focus
	b.waitText("fake/m · acceptEdits ·")
	if f := b.focus(); f != paneInput {
		t.Errorf("Shift+Tab in the input box moved the focus to %d", f)
	}
	b.key(tcell.KeyRune, '4', tcell.ModAlt)
	b.key(tcell.KeyBacktab, 0, tcell.ModNone)
	b.waitFor("shift+tab", func(string) bool { return b.focus() == paneApprovals })
	b.key(tcell.KeyRune, '1', tcell.ModAlt)
	b.waitFor("alt+1", func(string) bool { return b.focus() == paneTranscript })
	b.key(tcell.KeyRune, '0', tcell.ModAlt)
	b.waitFor("alt+0", func(string) bool { return b.focus() == paneInput })
	var text string
	b.onLoop(func() { text = b.w.input.GetText() })
	if text != "" {
		t.Errorf("Tab typed into the input box: %q", text)
	}
	b.typeText("zq?") // in the input box these are text, not keys
	b.waitFor("typed text", func(string) bool {
		b.onLoop(func() { text = b.w.input.GetText() })
		return text == "zq?"
	})
}

func TestHelpScreen(t *testing.T) {
	b := startBench(t, 160, 50, Options{})
	b.waitText("1 Transcript")
	b.key(tcell.KeyTab, 0, tcell.ModNone)
	b.typeText("?")
	// The commands come first (new user r22: they were after ~150 key lines).
	s := b.waitText("Help — Esc", "Slash commands", "/resume [ID]")
	if strings.Contains(s, "2 Timeline") {
		t.Errorf("the help screen does not cover the panes:\n%s", s)
	}
	if y, _ := rowOf(s, "Slash commands"); y > 3 {
		t.Errorf("the slash commands start on row %d, not at the top:\n%s", y, s)
	}
	b.typeText("G") // the rest is further down
	b.waitText("one event back", "rewind the session to before")
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	b.waitText("2 Timeline")
	b.key(tcell.KeyF1, 0, tcell.ModNone)
	b.waitText("Help — Esc")
	b.typeText("q")
	b.waitText("2 Timeline")

	b.sim.SetSize(80, 24) // too small for columns: one column that scrolls
	b.post(tcell.NewEventResize(80, 24))
	b.waitText("2 Timeline")
	b.key(tcell.KeyF1, 0, tcell.ModNone)
	s = b.waitText("Help — Esc", "/help")
	if strings.Contains(s, "one event back") {
		t.Fatalf("everything fits at 80x24?\n%s", s)
	}
	b.typeText("G")
	b.waitText("one event back")
}

func TestBracketedPasteKeepsNewlines(t *testing.T) {
	prov := &providertest.Scripted{}
	b := startBench(t, 160, 50, Options{})
	ag, _ := newTestAgent(t, prov)
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b.w.Attach(backendOf(ag), s.ID)
	b.waitText(shortID(s.ID) + " · idle")

	b.post(tcell.NewEventPaste(true))
	b.typeText("line one")
	b.key(tcell.KeyCtrlJ, 0, tcell.ModNone) // LF, as tcell 2.13 delivers it in a paste
	b.typeText("line two")
	b.key(tcell.KeyEnter, 0, tcell.ModNone) // CR of a CRLF pair
	b.key(tcell.KeyCtrlJ, 0, tcell.ModNone) // its LF: one newline, not two
	b.typeText("line three")
	b.post(tcell.NewEventPaste(false))
	want := "line one\nline two\nline three"
	var text string
	b.waitFor("the paste in the input box", func(string) bool {
		b.onLoop(func() { text = b.w.input.GetText() })
		return text == want
	})
	b.waitText("║line one", "║line two", "║line three") // the box grew and shows all of it
	if n := len(events(t, ag, s.ID)); n != 1 {
		t.Errorf("the paste submitted something: %d events", n)
	}
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitModel("the turn", func(m *Model) bool { return m.Status.Turn == TurnCompleted })
	var got string
	b.model(func(m *Model) { got = m.Blocks[0].Text })
	if got != want {
		t.Errorf("sent %q, want %q", got, want)
	}
	if req := prov.Request(0); !strings.Contains(req.Messages[len(req.Messages)-1].Text(), want) {
		t.Errorf("the model got %q", req.Messages[len(req.Messages)-1].Text())
	}
}

func TestCtrlCTwiceQuits(t *testing.T) {
	b := startBench(t, 100, 30, Options{})
	b.waitText("1 Transcript")
	b.key(tcell.KeyCtrlC, 'c', tcell.ModCtrl)
	b.waitText("press Ctrl+C again to quit")
	b.secondCtrlCQuits()
}

// secondCtrlCQuits checks that the workbench is still running after a first
// Ctrl+C, then that a second one quits it without an error.
func (b *simBench) secondCtrlCQuits() {
	b.t.Helper()
	select {
	case <-b.done:
		b.t.Fatal("one Ctrl+C quit")
	case <-time.After(50 * time.Millisecond):
	}
	b.key(tcell.KeyCtrlC, 'c', tcell.ModCtrl)
	select {
	case err := <-b.done:
		if err != nil {
			b.t.Errorf("Run: %v", err)
		}
		b.done <- nil
	case <-time.After(10 * time.Second):
		b.t.Fatal("two Ctrl+C did not quit")
	}
}

func TestSlashCommandCompletionAndHelp(t *testing.T) {
	b := startBench(t, 160, 50, Options{})
	b.waitText("1 Transcript")
	b.typeText("/he")
	b.waitText("/help keys and commands")
	b.key(tcell.KeyTab, 0, tcell.ModNone)
	var text string
	b.waitFor("completion", func(string) bool {
		b.onLoop(func() { text = b.w.input.GetText() })
		return text == "/help"
	})
	if f := b.focus(); f != paneInput {
		t.Errorf("Tab completed and moved the focus to %d", f)
	}
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitText("Help — Esc")
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	b.typeText("/nope")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitText("unknown command /nope")
}

func TestPrintAtWideRunes(t *testing.T) {
	sim := tcell.NewSimulationScreen("UTF-8")
	if err := sim.Init(); err != nil {
		t.Fatal(err)
	}
	defer sim.Fini()
	sim.SetSize(20, 2)
	n := printAt(sim, 0, 0, 20, "日本a😀b", tcell.StyleDefault)
	if n != 8 {
		t.Errorf("width %d, want 8", n)
	}
	if n := printAt(sim, 0, 1, 3, "日本", tcell.StyleDefault); n != 2 {
		t.Errorf("a wide rune was split at the edge: %d cells", n)
	}
	sim.Show()
	cells, w, _ := sim.GetContents()
	var got []string
	for x := 0; x < 8; x++ {
		got = append(got, string(cells[x].Runes))
	}
	want := []string{"日", " ", "本", " ", "a", "😀", " ", "b"}
	for x := range want {
		if x < len(got) && got[x] != want[x] && !(want[x] == " " && got[x] == "") {
			t.Errorf("cell %d = %q, want %q (all %q, width %d)", x, got[x], want[x], got, w)
		}
	}
}

func TestStopBeforeRun(t *testing.T) {
	w, err := New(Options{Screen: tcell.NewSimulationScreen("UTF-8")})
	if err != nil {
		t.Fatal(err)
	}
	w.Stop()
	done := make(chan error, 1)
	go func() { done <- w.Run() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run after Stop did not return")
	}
}

// TestCtrlCCancelsTheRunningTurn (new user r24 #6, as Claude Code): the
// first Ctrl+C cancels a running turn and keeps the workbench open; a second
// one within 2 s quits.
func TestCtrlCCancelsTheRunningTurn(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{{Events: []provider.Event{{Type: provider.EventTextDelta, Text: "thinking"}}, Block: true}}}
	b, _, _, _ := attached(t, 120, 40, prov)
	b.send("a long answer")
	b.waitModel("the turn to run", func(m *Model) bool { return m.Status.Turn == TurnRunning })
	b.key(tcell.KeyCtrlC, 'c', tcell.ModCtrl)
	b.waitModel("the cancellation", func(m *Model) bool { return m.Status.Turn == TurnCancelled })
	b.secondCtrlCQuits()
}
