package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/provider/providertest"
)

// TestDecideHold: a held answer is given when the delay passes, on Enter or
// on its own key again; another letter within the delay types both; any
// other key takes it back; a key after the delay gives it first. Each case
// is a sequence of keys with their times (ms after the held key).
func TestDecideHold(t *testing.T) {
	t0 := time.Now()
	type in struct {
		ms int
		in holdInput
	}
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	for _, tc := range []struct {
		name  string
		held  rune
		keys  []in
		given bool
		typed string
	}{
		{"a lone y: given when the delay passes", 'y', []in{{299, holdInput{timer: true}}, {300, holdInput{timer: true}}}, true, ""},
		{"add tests at 120 ms a key: typed", 'a', []in{{120, holdInput{r: 'd'}}}, false, "ad"},
		{"no wait", 'n', []in{{90, holdInput{r: 'o'}}}, false, "no"},
		{"yes", 'y', []in{{299, holdInput{r: 'e'}}}, false, "ye"},
		{"enter gives it at once", 's', []in{{10, holdInput{enter: true}}}, true, ""},
		{"the same key again gives it at once", 'a', []in{{50, holdInput{r: 'a'}}}, true, ""},
		{"another key takes it back", 'y', []in{{50, holdInput{}}}, false, ""},
		{"a letter after the delay: given, then the letter types", 'y', []in{{300, holdInput{r: 'e'}}}, true, "e"},
	} {
		given, typed := false, ""
		for _, k := range tc.keys {
			switch decideHold(tc.held, t0, k.in, ms(k.ms)) {
			case holdWait:
				continue
			case holdCommit:
				given = true
			case holdCommitPass:
				given, typed = true, string(k.in.r)
			case holdTypeBack:
				typed = string(tc.held) + string(k.in.r)
			case holdTakeBack:
			}
			break
		}
		if given != tc.given || typed != tc.typed {
			t.Errorf("%s: given %v typed %q, want %v %q", tc.name, given, typed, tc.given, tc.typed)
		}
	}
}

// move moves the fake clock's now by d without ticking anything.
func (c *fakeClock) move(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// holdBench is a width×height workbench on a fake clock (w.now and the
// pump's timers) with a pending Write of b.txt; it returns once the request
// is pending.
func holdBench(t *testing.T, width, height int) (*simBench, *fakeClock, string) {
	t.Helper()
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c2", "Write", `{"file_path":"b.txt","content":"x\n"}`)),
		{Events: providertest.TextEvents("All done.")},
	}}
	clk := &fakeClock{now: time.Now()}
	b := startBenchWith(t, width, height, Options{}, func(w *Workbench) {
		w.now = clk.Now
		w.pump.newTimer = clk.ticker
	})
	ag, root := newTestAgent(t, prov)
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b.w.Attach(backendOf(ag), s.ID)
	b.waitFor("the session attached, idle", func(string) bool { // at 40 columns the status line drops the session ID
		ok := false
		b.onLoop(func() { ok = b.w.sessionID == s.ID && b.w.model.Status.Turn == TurnIdle })
		return ok
	})
	b.send("write it")
	b.waitModel("the request", func(m *Model) bool { return len(m.Approvals) == 1 })
	return b, clk, root
}

// lineNoticeText is the notices line's text, read on the event loop.
func (b *simBench) lineNoticeText() string {
	var s string
	b.w.app.QueueUpdate(func() {
		if n, ok := b.w.lineNotice(); ok {
			s = n.text
		}
	})
	return s
}

// TestTypingAddTestsAnswersNothing is the red team's finding: a request on
// screen for 2 s with the focus moved to the queue, the person types "add
// tests" at 120 ms a key. The a is held, not taken as always allow: the
// next letter takes it back, the box holds "add tests", no answer (no rule)
// is given.
func TestTypingAddTestsAnswersNothing(t *testing.T) {
	b, clk, root := holdBench(t, 120, 40)
	b.waitText("╔ 3 Approvals") // the request took the focus
	clk.move(2 * time.Second)
	b.key(tcell.KeyRune, 'a', tcell.ModNone)
	b.waitText("always allow… (any other key takes it back)")
	// Each key is read before the clock moves on: the clock is the test's,
	// and a key still queued on a loaded machine when the next moves came
	// would meet a commit delay that had passed for it (it answered the
	// request, in the test only; "dd tests" came out of the input box).
	typed := "a"
	for _, r := range "dd tests" {
		clk.move(120 * time.Millisecond)
		b.key(tcell.KeyRune, r, tcell.ModNone)
		time.Sleep(2 * burstGap)
		typed += string(r)
		b.waitInput(typed)
	}
	b.waitInput("add tests")
	b.waitFor("the delay's timer to stop", func(string) bool { return clk.active() == 0 })
	b.model(func(m *Model) {
		if len(m.Approvals) != 1 {
			t.Errorf("typing answered the request: %+v", m.Approvals)
		}
	})
	if _, err := os.Stat(filepath.Join(root, "b.txt")); err == nil {
		t.Fatal("typing add tests approved the Write")
	}
}

// TestLoneYApprovesAfterTheDelay: a y on its own says at once what it will
// do, and approves once the commit delay passes with no further key.
func TestLoneYApprovesAfterTheDelay(t *testing.T) {
	b, clk, root := holdBench(t, 120, 40)
	clk.move(2 * time.Second)
	b.key(tcell.KeyRune, 'y', tcell.ModNone)
	b.waitText("allow once… (any other key takes it back)")
	b.model(func(m *Model) {
		if len(m.Approvals) != 1 {
			t.Errorf("y answered before the delay: %+v", m.Approvals)
		}
	})
	clk.advance(commitDelay)
	b.waitModel("the turn to end", func(m *Model) bool { return m.Status.Turn == TurnCompleted })
	if _, err := os.Stat(filepath.Join(root, "b.txt")); err != nil {
		t.Fatalf("y did not approve after the delay: %v", err)
	}
}

// TestSameKeyTwiceApprovesAtOnce: yy gives the answer without the delay.
func TestSameKeyTwiceApprovesAtOnce(t *testing.T) {
	b, clk, _ := holdBench(t, 120, 40)
	clk.move(2 * time.Second)
	b.key(tcell.KeyRune, 'y', tcell.ModNone)
	b.waitText("allow once…")
	time.Sleep(2 * burstGap)
	b.key(tcell.KeyRune, 'y', tcell.ModNone)
	b.waitModel("the turn to end", func(m *Model) bool { return m.Status.Turn == TurnCompleted })
}

// TestApprovalOffScreenAnswersNothing: at 40x10 neither the queue nor the
// diff pane is drawn; y answers nothing and says how to see the request.
func TestApprovalOffScreenAnswersNothing(t *testing.T) {
	b, clk, root := holdBench(t, 40, 10)
	clk.move(2 * time.Second)
	b.key(tcell.KeyRune, 'y', tcell.ModNone)
	b.waitFor("the advice", func(string) bool {
		return strings.Contains(b.lineNoticeText(), "make the window larger or zoom the queue")
	})
	b.model(func(m *Model) {
		if len(m.Approvals) != 1 {
			t.Errorf("y answered a request not on screen: %+v", m.Approvals)
		}
	})
	if _, err := os.Stat(filepath.Join(root, "b.txt")); err == nil {
		t.Fatal("y approved a request not on screen")
	}
}

// TestGraceRestartsOnResize: a key just after the terminal is resized, or
// the layout changes (F4), is typing, not an answer: the request must be on
// screen where it is for approvalGrace again (in a queue the person
// focused the key is used up with advice rather than typed).
func TestGraceRestartsOnResize(t *testing.T) {
	b, clk, root := holdBench(t, 120, 40)
	clk.move(2 * time.Second)
	b.sim.SetSize(110, 40)
	b.post(tcell.NewEventResize(110, 40))
	b.waitRedrawnAt(clk.Now())
	clk.move(50 * time.Millisecond)
	b.key(tcell.KeyRune, 'y', tcell.ModNone)
	b.waitInput("y")
	b.key(tcell.KeyBackspace2, 0, tcell.ModNone)
	b.waitInput("")
	b.key(tcell.KeyRune, '3', tcell.ModAlt)
	clk.move(2 * time.Second)
	b.key(tcell.KeyF4, 0, tcell.ModNone)
	b.waitRedrawnAt(clk.Now())
	clk.move(50 * time.Millisecond)
	b.key(tcell.KeyRune, 'y', tcell.ModNone) // in the queue a person focused: used up, with advice
	b.waitFor("the advice", func(string) bool { return strings.Contains(b.lineNoticeText(), "just appeared or moved") })
	b.model(func(m *Model) {
		if len(m.Approvals) != 1 {
			t.Errorf("y right after a layout change answered: %+v", m.Approvals)
		}
	})
	if _, err := os.Stat(filepath.Join(root, "b.txt")); err == nil {
		t.Fatal("y right after a resize approved the Write")
	}
}

// waitRedrawnAt waits until a frame drew the pending request somewhere new
// at now (its grace restarted).
func (b *simBench) waitRedrawnAt(now time.Time) {
	b.t.Helper()
	b.waitFor("the request drawn anew", func(string) bool {
		var since time.Time
		b.w.app.QueueUpdate(func() {
			for _, s := range b.w.approvalFocus.shown {
				since = s.since
			}
		})
		return since.Equal(now)
	})
}

// afterReading types answer keys once a person could have read the request:
// approvalGrace after it was drawn (approval_shown.go). A wait, not a timing
// assertion; the answer is given commitDelay later.
func (b *simBench) afterReading(keys string) {
	time.Sleep(approvalGrace + 50*time.Millisecond)
	b.typeText(keys)
}
