package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/provider/providertest"
	"pincer/themes"
)

// pendingEdit starts a turn that reads a.txt (holding content) and asks to
// replace old with new in it, on a width×height workbench; it returns once
// the request is pending.
func pendingEdit(t *testing.T, width, height int, content, old, new string) (*simBench, string) {
	t.Helper()
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "Read", `{"file_path":"a.txt"}`)),
		providertest.ToolCalls(providertest.ToolCall("c2", "Edit", `{"file_path":"a.txt","old_string":"`+old+`","new_string":"`+new+`"}`)),
		{Events: providertest.TextEvents("All done.")},
	}}
	b, _, _, root := attached(t, width, height, prov)
	file := filepath.Join(root, "a.txt")
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	b.send("change it")
	b.waitText("3 Approvals (1)")
	return b, file
}

// TestApproveWithYNoFocusKey is Found 1: a pending Edit is approved by `y`
// typed with no focus key pressed first (the input box was empty: the
// request took the focus to the queue); the status line says an approval
// waits; once it is answered, the focus is back in the input box.
func TestApproveWithYNoFocusKey(t *testing.T) {
	b, file := pendingEdit(t, 120, 40, "hello\n", "hello", "HELLO")
	b.waitText("⏵ approval: y/s/a/n/N", "3 Approvals (1) · ⏵ y/s/a/n/N", "y once · s session · a always · n deny · N deny with reason")
	time.Sleep(approvalGrace + 100*time.Millisecond) // a person reads the request first
	b.typeText("y")
	b.waitModel("the turn to end", func(m *Model) bool { return m.Status.Turn == TurnCompleted })
	if got, _ := os.ReadFile(file); string(got) != "HELLO\n" {
		t.Fatalf("after y the file is %q", got)
	}
	b.typeText("zqxj")
	s := b.waitText("║zqxj") // the double border: the input box has the focus again
	if strings.Contains(s, "approval waiting") {
		t.Errorf("the notice stayed after the answer:\n%s", s)
	}
}

// TestApprovalKeysTypeWhenInputHasText: with text in the input box, y types
// (the prompt being written is not an answer) and the box's title names the
// key that jumps to the queue; KeepInputFocus leaves the focus in the box.
func TestApprovalKeysTypeWhenInputHasText(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c2", "Write", `{"file_path":"b.txt","content":"x\n"}`)),
		{Events: providertest.TextEvents("All done.")},
	}}
	b := startBench(t, 120, 40, Options{KeepInputFocus: true})
	ag, root := newTestAgent(t, prov)
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b.w.Attach(backendOf(ag), s.ID)
	b.waitText(shortID(s.ID) + " · idle")
	b.send("write it")
	b.waitText("3 Approvals (1)")
	b.typeText("why")
	b.waitText("║why", "approval waiting: Alt+3 goes to the queue", "Alt+3 approvals: y once · s session")
	b.typeText("y")
	b.waitText("║whyy")
	if _, err := os.Stat(filepath.Join(root, "b.txt")); err == nil {
		t.Fatal("a y typed into text approved the Write")
	}
	b.key(tcell.KeyRune, '3', tcell.ModAlt)
	b.afterReading("y")
	b.waitModel("the turn to end", func(m *Model) bool { return m.Status.Turn == TurnCompleted })
	if _, err := os.Stat(filepath.Join(root, "b.txt")); err != nil {
		t.Fatalf("y in the queue did not approve: %v", err)
	}
}

// TestKeyBar80ShowsApprovalKeys is Found 1: at 80 columns the key bar starts
// with all five approval keys while a request waits.
func TestKeyBar80ShowsApprovalKeys(t *testing.T) {
	b, _ := pendingEdit(t, 80, 24, "hello\n", "hello", "HELLO")
	s := b.waitText("3 Approvals (1)")
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	bar := lines[len(lines)-1]
	if !strings.HasPrefix(strings.TrimSpace(bar), "y once · s session · a always · n deny · N deny with reason") {
		t.Fatalf("key bar = %q\n%s", bar, s)
	}
}

// TestDiffShowsChangeAtColumn150 is Found 2: at 80x24 a change around column
// 150 of a long line is on screen (the line wraps, a continuation mark in the
// gutter; the first change scrolled into view), the header says +1 −1, and
// zoomed the pane shows the removed and the added word, each highlighted.
func TestDiffShowsChangeAtColumn150(t *testing.T) {
	line := strings.Repeat("a", 145) + "OLDWORD" + strings.Repeat("b", 50)
	b, _ := pendingEdit(t, 80, 24, line+"\n", "OLDWORD", "NEWWORD")
	s := b.waitText("OLDWORD", "+1 −1") // the first change is scrolled into view in any pane size
	if !strings.Contains(s, contMark) {
		t.Errorf("no continuation mark:\n%s", s)
	}
	b.key(tcell.KeyRune, '4', tcell.ModAlt) // zoomed, the diff pane shows both sides of the change
	b.typeText("z")
	b.waitText("OLDWORD", "NEWWORD", "[zoomed]")
	for _, word := range []string{"OLDWORD", "NEWWORD"} {
		if attr := attrOf(b, word); attr&tcell.AttrReverse == 0 {
			t.Errorf("%s is not highlighted (attr %v)", word, attr)
		}
	}
	if attr := attrOf(b, "bbbbbbbbbb"); attr&tcell.AttrReverse != 0 {
		t.Errorf("unchanged text is highlighted")
	}
}

// attrOf returns the attributes of the first cell of text on the screen.
func attrOf(b *simBench, text string) tcell.AttrMask {
	var attr tcell.AttrMask
	b.w.app.QueueUpdate(func() {
		cells, width, height := b.sim.GetContents()
		for y := 0; y < height; y++ {
			var row strings.Builder
			for x := 0; x < width; x++ {
				r := ' '
				if c := cells[y*width+x]; len(c.Runes) > 0 && c.Runes[0] != 0 {
					r = c.Runes[0]
				}
				row.WriteRune(r)
			}
			if i := strings.Index(row.String(), text); i >= 0 {
				x := len([]rune(row.String()[:i]))
				_, _, attr = cells[y*width+x].Style.Decompose()
				return
			}
		}
	})
	return attr
}

// TestDiffPaneWrapsReasons is Found 2: the full "Why it asks" reason and a
// deny reason wrap in the diff pane, at any width, nothing cut; with
// wrapping off, l scrolls sideways to the end of a long line.
func TestDiffPaneWrapsReasons(t *testing.T) {
	reason := "Why it asks: Bash needs approval because `curl https://example.com/a/very/long/path` reaches the network and writes outside the workspace END-OF-REASON"
	denied := "Outcome: denied: the user said please use the vendored copy of the library instead of fetching it again LAST-WORD"
	for _, width := range []int{30, 50, 80} {
		th := themes.Dark()
		sim := tcell.NewSimulationScreen("UTF-8")
		if err := sim.Init(); err != nil {
			t.Fatal(err)
		}
		sim.SetSize(width, 20)
		p := newDiffPane(func() diffContent {
			return diffContent{Key: "k", Header: proseParts(reason), Text: denied, Prose: true}
		}, th.Style)
		p.SetRect(0, 0, width, 20)
		p.Draw(sim)
		sim.Show()
		text := joinedScreen(sim)
		for _, w := range append(strings.Fields(reason), strings.Fields(denied)...) {
			if len(w) < width-3 && !strings.Contains(text, w) {
				t.Errorf("width %d: %q is cut:\n%s", width, w, screenLines(sim))
			}
		}
	}
}

// TestDiffPaneNoWrapScrollsSideways: w turns wrapping off (the title says
// so), and l brings the end of a long line into view.
func TestDiffPaneNoWrapScrollsSideways(t *testing.T) {
	th := themes.Dark()
	sim := tcell.NewSimulationScreen("UTF-8")
	if err := sim.Init(); err != nil {
		t.Fatal(err)
	}
	sim.SetSize(40, 8)
	diff := "--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-" + strings.Repeat("x", 60) + "OLD\n+" + strings.Repeat("x", 60) + "NEW\n"
	p := newDiffPane(func() diffContent { return diffContent{Key: "k", Text: diff, Diff: true} }, th.Style)
	p.SetRect(0, 0, 40, 8)
	draw := func() string { p.Draw(sim); sim.Show(); return screenLines(sim) }
	if s := draw(); !strings.Contains(s, "NEW") || !strings.Contains(s, "x.go +1 −1") {
		t.Fatalf("wrapped: the end of the line or the header is missing:\n%s", s)
	}
	p.scroll(ActWrap)
	if s := draw(); strings.Contains(s, "NEW") || !strings.Contains(s, "no wrap") {
		t.Fatalf("no wrap: the line should be cut:\n%s", s)
	}
	for i := 0; i < 4; i++ {
		p.scroll(ActRight)
	}
	if s := draw(); !strings.Contains(s, "NEW") {
		t.Fatalf("after l the end of the line is not shown:\n%s", s)
	}
}

func screenLines(sim tcell.SimulationScreen) string {
	cells, width, height := sim.GetContents()
	var out strings.Builder
	for y := 0; y < height; y++ {
		for x := 0; x < width; x++ {
			c := cells[y*width+x]
			if len(c.Runes) == 0 || c.Runes[0] == 0 {
				out.WriteByte(' ')
				continue
			}
			out.WriteString(string(c.Runes))
		}
		out.WriteByte('\n')
	}
	return out.String()
}

// joinedScreen is the pane's inner text with its rows joined as the wrap
// split them (border, gutter and line ends dropped).
func joinedScreen(sim tcell.SimulationScreen) string {
	var out strings.Builder
	for _, l := range strings.Split(screenLines(sim), "\n") {
		r := []rune(l)
		if len(r) < 3 {
			continue
		}
		inner := strings.TrimRight(string(r[2:len(r)-1]), " ")
		if strings.HasPrefix(string(r[1:]), contMark) {
			out.WriteString(inner)
		} else {
			out.WriteString("\n" + inner)
		}
	}
	return out.String()
}

// TestTypingAsARequestArrivesAnswersNothing: letters typed into the queue
// the request focused go back to the input box as the prompt being
// written, and an approval key pressed before the request has been on screen
// for approvalGrace (a frozen clock: never) types too — "say" does not
// allow for the session.
func TestTypingAsARequestArrivesAnswersNothing(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c2", "Write", `{"file_path":"b.txt","content":"x\n"}`)),
		{Events: providertest.TextEvents("All done.")},
	}}
	frozen := time.Now()
	b := startBenchWith(t, 120, 40, Options{}, func(w *Workbench) { w.now = func() time.Time { return frozen } })
	ag, root := newTestAgent(t, prov)
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b.w.Attach(backendOf(ag), s.ID)
	b.waitText(shortID(s.ID) + " · idle")
	b.send("write it")
	b.waitText("3 Approvals (1)", "╔ 3 Approvals") // the queue has the focus
	b.typeText("s")                                // one key on its own (a burst of keys is dropped: approval_guard.go)
	b.waitText("║s")
	b.typeText("ay hi")
	b.waitFor("the rest typed", func(s string) bool { return strings.Contains(s, "║s") && strings.Contains(s, "hi") })
	b.model(func(m *Model) {
		if len(m.Approvals) != 1 {
			t.Errorf("typing answered the request: %+v", m.Approvals)
		}
	})
	if _, err := os.Stat(filepath.Join(root, "b.txt")); err == nil {
		t.Fatal("typed text approved the Write")
	}
}

// TestAnswerable: an approval key answers only a request drawn at least
// approvalGrace before it.
func TestAnswerable(t *testing.T) {
	t0 := time.Now()
	for _, tc := range []struct {
		drawn, now time.Time
		want       bool
	}{
		{time.Time{}, t0, false},
		{t0, t0, false},
		{t0, t0.Add(approvalGrace - time.Millisecond), false},
		{t0, t0.Add(approvalGrace), true},
		{t0, t0.Add(time.Minute), true},
	} {
		if got := answerable(tc.drawn, tc.now); got != tc.want {
			t.Errorf("answerable(%v, +%v) = %v", tc.drawn.IsZero(), tc.now.Sub(tc.drawn), got)
		}
	}
}
