package tui

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	msg "pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
)

// timerClock is a test's clock for the scheduler: now moves only when a timer
// fires, and each timer the pump arms is recorded with its duration, to be
// fired by the test.
type timerClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	d       time.Duration
	at      time.Time
	ch      chan time.Time
	stopped bool
	fired   bool
}

func (c *timerClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// timer is a tickerFunc: the pump's one-shot timers.
func (c *timerClock) timer(d time.Duration) (<-chan time.Time, func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{d: d, at: c.now.Add(d), ch: make(chan time.Time)}
	c.timers = append(c.timers, t)
	return t.ch, func() {
		c.mu.Lock()
		t.stopped = true
		c.mu.Unlock()
	}
}

// armed returns the timers neither fired nor stopped.
func (c *timerClock) armed() []*fakeTimer {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*fakeTimer
	for _, t := range c.timers {
		if !t.fired && !t.stopped {
			out = append(out, t)
		}
	}
	return out
}

// fire moves now to t's time and fires it.
func (c *timerClock) fire(t *fakeTimer) {
	c.mu.Lock()
	c.now, t.fired = t.at, true
	c.mu.Unlock()
	t.ch <- t.at
}

// waitArmed waits until exactly n timers are armed and returns them.
func waitArmed(b *simBench, c *timerClock, n int) []*fakeTimer {
	b.t.Helper()
	var got []*fakeTimer
	b.waitFor("timers armed", func(string) bool { got = c.armed(); return len(got) == n })
	return got
}

// scheduleBench is an attached workbench whose pump timers and clock are c's.
func scheduleBench(t *testing.T, prov *providertest.Scripted) (*simBench, *timerClock) {
	t.Helper()
	clk := &timerClock{now: time.Date(2026, 12, 1, 13, 30, 0, 0, time.Local)}
	b := startBenchWith(t, 160, 40, Options{}, func(w *Workbench) {
		w.now = clk.Now
		w.pump.newTimer = clk.timer
	})
	ag, _ := newTestAgent(t, prov)
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b.w.Attach(backendOf(ag), s.ID)
	b.waitText(shortID(s.ID) + " · idle")
	return b, clk
}

// lastUserText is the last user message of a model request.
func lastUserText(req provider.Request) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == msg.RoleUser {
			return req.Messages[i].Text()
		}
	}
	return ""
}

// TestLoopRepeatsAPrompt: /loop 5m sends its prompt at once (as Claude
// Code's /loop), then every 5m: one timer at a time and nothing else (no
// clock, no redraw while idle); each time it fires the prompt is sent as a
// turn and the next time is armed; the list shows it; cancel stops the timer;
// the answers name the command typed.
func TestLoopRepeatsAPrompt(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{providertest.Text("first pong"), providertest.Text("second pong"), providertest.Text("third pong")}}
	b, clk := scheduleBench(t, prov)
	b.send("/loop 5m say ping")
	b.waitText("scheduled #1 every 5m, next now: say ping (/loop cancel 1 stops it)")
	timers := waitArmed(b, clk, 1)
	if timers[0].d != 0 {
		t.Fatalf("the first run armed for %s, want now", timers[0].d)
	}
	clk.fire(timers[0])
	b.waitText("first pong", "scheduled #1: say ping")
	b.waitText(" · done")
	timers = waitArmed(b, clk, 1)
	if timers[0].d != 5*time.Minute {
		t.Fatalf("armed for %s", timers[0].d)
	}
	if b.w.pump.clockRunning() {
		t.Error("the clock runs while idle")
	}
	// The turn's last events may still draw; once they have (no frame for
	// 300 ms), nothing may draw while idle: a clock ticking each second would
	// show within the 1.2 s watched.
	draws := b.w.pump.draws.Load()
	for settle := time.Now().Add(5 * time.Second); time.Now().Before(settle); {
		time.Sleep(300 * time.Millisecond)
		now := b.w.pump.draws.Load()
		if now == draws {
			break
		}
		draws = now
	}
	time.Sleep(1200 * time.Millisecond)
	if n := b.w.pump.draws.Load() - draws; n != 0 {
		t.Errorf("%d redraws while idle with a job armed", n)
	}
	if prov.Calls() != 1 {
		t.Fatal("sent before it was due")
	}

	clk.fire(timers[0])
	b.waitText("second pong")
	if got := lastUserText(prov.Request(1)); got != "say ping" {
		t.Errorf("sent %q", got)
	}
	timers = waitArmed(b, clk, 1)
	if !timers[0].at.Equal(time.Date(2026, 12, 1, 13, 40, 0, 0, time.Local)) {
		t.Errorf("next due at %s, want 13:40", timers[0].at)
	}
	b.waitText(" · done")
	clk.fire(timers[0])
	b.waitText("third pong")
	b.waitText(" · done")

	b.send("/loop list")
	b.waitText("scheduled: #1 every 5m, next 13:45:00: say ping")
	timers = waitArmed(b, clk, 1)
	b.send("/loop cancel 1")
	b.waitText("cancelled #1")
	waitArmed(b, clk, 0)
	b.send("/loop")
	b.waitText("no scheduled prompts")
	if prov.Calls() != 3 {
		t.Errorf("%d model calls, want 3", prov.Calls())
	}
}

// TestScheduledPromptWaitsForTheTurn: a job due while a turn runs waits
// (listed as due), is not queued twice when it comes due again meanwhile, and
// is sent once when the turn ends.
func TestScheduledPromptWaitsForTheTurn(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{
		{Events: []provider.Event{{Type: provider.EventTextDelta, Text: "working"}}, Block: true},
		providertest.Text("pong after the turn"),
		providertest.Text("an extra reply"),
	}}
	b, clk := scheduleBench(t, prov)
	b.send("/loop 1m ping")
	b.waitText("scheduled #1 every 1m")
	job := waitArmed(b, clk, 1)[0]
	b.send("work forever")
	b.waitModel("the turn to run", func(m *Model) bool { return m.Status.Turn == TurnRunning })
	clk.fire(job)
	again := waitArmed(b, clk, 1)[0] // the repeat, armed although the first waits
	clk.fire(again)
	waitArmed(b, clk, 1)
	b.send("/loop list")
	b.waitText("due: waits for the turn to end")
	var queued []int
	b.onLoop(func() { queued = slices.Clone(b.w.sched.queue) })
	if !slices.Equal(queued, []int{1}) {
		t.Errorf("queue %v: want the job once", queued)
	}
	if prov.Calls() != 1 {
		t.Fatalf("%d model calls while the turn runs", prov.Calls())
	}
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	b.waitText("pong after the turn")
	b.waitText(" · done")
	time.Sleep(100 * time.Millisecond)
	if prov.Calls() != 2 {
		t.Errorf("%d model calls, want 2 (the job ran once)", prov.Calls())
	}
	if got := lastUserText(prov.Request(1)); got != "ping" {
		t.Errorf("sent %q", got)
	}
}

// TestScheduleOnceAndAt: /schedule in runs once and is gone; /schedule at arms
// for the next such time of day; a workbench command runs as one; a bad line
// and an unknown command are refused.
func TestScheduleOnceAndAt(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{providertest.Text("reviewed")}}
	b, clk := scheduleBench(t, prov)
	b.send("/schedule in 30m review it")
	b.waitText("scheduled #1 once at 14:00:00: review it")
	timer := waitArmed(b, clk, 1)[0]
	if timer.d != 30*time.Minute {
		t.Fatalf("armed for %s", timer.d)
	}
	clk.fire(timer)
	b.waitText("reviewed", " · done")
	waitArmed(b, clk, 0)
	b.send("/schedule")
	b.waitText("no scheduled prompts")

	b.send("/schedule at 9:05 morning notes")
	b.waitText("scheduled #2 once at Dec 2 09:05: morning notes")
	if d := waitArmed(b, clk, 1)[0].d; d != 19*time.Hour+5*time.Minute {
		t.Errorf("at 9:05 from 14:00: armed for %s", d)
	}
	b.send("/schedule every 1h /cost")
	b.waitText("scheduled #3 every 1h", "(/schedule cancel 3 stops it)")
	cost := waitArmed(b, clk, 2)[1]
	clk.fire(cost)
	b.waitText("scheduled #3: /cost", "1 turns · ")
	if prov.Calls() != 1 {
		t.Errorf("/cost went to the model: %d calls", prov.Calls())
	}

	b.send("/schedule tomorrow x")
	b.waitText("usage: /loop [INTERVAL] PROMPT")
	b.key(tcell.KeyCtrlU, 0, tcell.ModNone)
	b.send("/loop 5m /nosuch")
	b.waitText("unknown command /nosuch")
	b.key(tcell.KeyCtrlU, 0, tcell.ModNone)
	b.send("/schedule cancel all")
	b.waitText("cancelled 2 scheduled prompt(s)")
	waitArmed(b, clk, 0)
	if s := b.text(); strings.Contains(s, "scheduled #4") {
		t.Error("a refused line was scheduled")
	}
}
