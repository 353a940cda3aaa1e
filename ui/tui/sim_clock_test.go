package tui

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/provider/providertest"
)

// fakeClock is a test's clock: now moves only when the test says, and its
// tickers tick only when the test ticks them.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	tickers []chan time.Time
	started int // tickers started
	stopped int // tickers stopped
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// ticker is a tickerFunc.
func (c *fakeClock) ticker(time.Duration) (<-chan time.Time, func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time)
	c.tickers = append(c.tickers, ch)
	c.started++
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			c.mu.Lock()
			c.stopped++
			c.mu.Unlock()
		})
	}
}

// active is the number of tickers started and not stopped.
func (c *fakeClock) active() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.started - c.stopped
}

// advance moves now by d and ticks the newest ticker once (it blocks until
// the clock's goroutine took the tick).
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	ch := c.tickers[len(c.tickers)-1]
	now := c.now
	c.mu.Unlock()
	ch <- now
}

// clockBench is attached() with a fake clock.
func clockBench(t *testing.T, prov *providertest.Scripted) (*simBench, *fakeClock, string, string) {
	t.Helper()
	clk := &fakeClock{now: time.Now()}
	b := startBenchWith(t, 120, 40, Options{}, func(w *Workbench) {
		w.now = clk.Now
		w.pump.newTicker = clk.ticker
		w.pump.newTimer = clk.ticker
	})
	ag, root := newTestAgent(t, prov)
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b.w.Attach(backendOf(ag), s.ID)
	b.waitText(shortID(s.ID) + " · idle")
	return b, clk, s.ID, root
}

// Found 7 (issue 12): the elapsed timer froze at "running 0m00s" while a
// turn waited on an approval. With nothing else happening, the clock's tick
// alone redraws the status line, once per tick; once the turn ends the clock
// stops and nothing ticks.
func TestClockTicksWhileATurnWaits(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("r1", "Read", `{"file_path":"a.txt"}`)), // an Edit of an unread file fails unasked
		providertest.ToolCalls(providertest.ToolCall("c1", "Edit", `{"file_path":"a.txt","old_string":"a","new_string":"b"}`)),
		{Events: providertest.TextEvents("Done.")},
	}}
	b, clk, _, root := clockBench(t, prov)
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := clk.active(); n != 0 {
		t.Fatalf("%d tickers run while idle", n)
	}
	b.send("edit")
	b.waitText("1 awaiting approval")
	b.waitFor("the clock to start", func(string) bool { return clk.active() == 1 })
	var started time.Time
	b.model(func(m *Model) { started = m.Status.TurnStarted })
	clk.mu.Lock()
	clk.now = started
	clk.mu.Unlock()
	draws := b.w.pump.draws.Load()
	for i := 1; i <= 3; i++ {
		clk.advance(2 * time.Second)
		b.waitText("running 0m0" + string(rune('0'+2*i)) + "s, 1 awaiting approval")
	}
	if n := b.w.pump.draws.Load() - draws; n > 3 {
		t.Errorf("%d redraws for 3 ticks", n)
	}
	b.key(tcell.KeyRune, '3', tcell.ModAlt)
	b.afterReading("y")
	b.waitText("allow once…")
	clk.advance(commitDelay) // the held answer's timer, the newest
	b.waitText("Done.", " · done")
	b.waitFor("the clock to stop", func(string) bool { return clk.active() == 0 })
}
