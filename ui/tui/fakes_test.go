package tui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"pincer/core/agent"
	"pincer/core/app"
	"pincer/core/event"
	"pincer/core/permission"
	"pincer/core/provider"
	"pincer/persist/memory"
	"pincer/sandbox"
	"pincer/themes"
	"pincer/tools"
)

// newTestAgent builds an agent over a memory store in a temporary workspace,
// with the real tools, default permission mode and an approval queue, and the
// backend the workbench attaches to it (backendOf).
func newTestAgent(t *testing.T, prov provider.Provider) (*agent.Agent, string) {
	t.Helper()
	ws, err := sandbox.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	store, queue := memory.New(), app.NewApprovalQueue()
	ag, err := agent.New(agent.Config{Store: store, Provider: prov, Model: "m", ModelName: "fake/m",
		Tools: tools.Default(), Workspace: ws, SystemPrompt: "You are a test.", PermissionMode: permission.ModeDefault,
		Approver: queue, DeltaInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	testBackends.Store(ag, &app.Backend{Agent: ag, Store: store, Approvals: queue})
	return ag, ws.Root()
}

// testBackends maps each agent newTestAgent built to its backend.
var testBackends sync.Map

// backendOf returns the backend of an agent newTestAgent built.
func backendOf(ag *agent.Agent) *app.Backend {
	be, _ := testBackends.Load(ag)
	return be.(*app.Backend)
}

// simBench is a workbench running on a simulation screen.
type simBench struct {
	t    *testing.T
	w    *Workbench
	sim  tcell.SimulationScreen
	done chan error
}

// startBench runs a workbench on a width×height simulation screen; it is
// stopped at the end of the test.
func startBench(t *testing.T, width, height int, opts Options) *simBench {
	t.Helper()
	return startBenchWith(t, width, height, opts, nil)
}

// startBenchWith is startBench with before run on the workbench before it
// runs (a fake clock, say).
func startBenchWith(t *testing.T, width, height int, opts Options, before func(*Workbench)) *simBench {
	t.Helper()
	sim := tcell.NewSimulationScreen("UTF-8")
	opts.Screen = sim
	if opts.Theme == nil {
		opts.Theme = themes.Dark()
	}
	if opts.Model == "" {
		opts.Model = "fake/m"
	}
	if opts.Mode == "" {
		opts.Mode = "default"
	}
	w, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	sim.SetSize(width, height) // after SetScreen, which resets the size
	b := &simBench{t: t, w: w, sim: sim, done: make(chan error, 1)}
	if before != nil {
		before(w)
	}
	go func() { b.done <- w.Run() }()
	t.Cleanup(b.stop)
	return b
}

// stop stops the workbench and waits for Run to return.
func (b *simBench) stop() {
	b.w.Stop()
	select {
	case err := <-b.done:
		if err != nil {
			b.t.Errorf("Run: %v", err)
		}
		b.done <- nil // later stops return at once
	case <-time.After(15 * time.Second):
		b.t.Fatal("Run did not return after Stop")
	}
}

// text returns the screen as lines, read on the event loop. The cell a wide
// rune covers is skipped (the simulation keeps what it held before there,
// which a terminal would not show).
func (b *simBench) text() string {
	var out strings.Builder
	b.w.app.QueueUpdate(func() {
		cells, width, height := b.sim.GetContents()
		for y := 0; y < height; y++ {
			for x := 0; x < width; x++ {
				c := cells[y*width+x]
				if len(c.Runes) == 0 || c.Runes[0] == 0 {
					out.WriteByte(' ')
					continue
				}
				out.WriteString(string(c.Runes))
				if uniseg.StringWidth(string(c.Runes)) == 2 {
					x++
				}
			}
			out.WriteByte('\n')
		}
	})
	return out.String()
}

// waitFor polls the screen until cond holds (15 s at most: a wait, not a timing
// assertion).
func (b *simBench) waitFor(what string, cond func(screen string) bool) string {
	b.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		s := b.text()
		if cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitText waits until the screen contains every one of texts.
func (b *simBench) waitText(texts ...string) string {
	b.t.Helper()
	return b.waitFor(strings.Join(texts, ", "), func(s string) bool {
		for _, t := range texts {
			if !strings.Contains(s, t) {
				return false
			}
		}
		return true
	})
}

// key injects one key.
func (b *simBench) key(k tcell.Key, r rune, mod tcell.ModMask) { b.sim.InjectKey(k, r, mod) }

// typeText injects runes one by one.
func (b *simBench) typeText(s string) {
	for _, r := range s {
		b.sim.InjectKey(tcell.KeyRune, r, tcell.ModNone)
	}
}

// post injects a non-key event, retrying while the queue is full.
func (b *simBench) post(ev tcell.Event) {
	for b.sim.PostEvent(ev) != nil {
		time.Sleep(time.Millisecond)
	}
}

// model runs f on the workbench's model, on the event loop (which alone
// touches it).
func (b *simBench) model(f func(m *Model)) {
	b.w.app.QueueUpdate(func() { f(b.w.model) })
}

// backend returns the attached backend, read on the event loop.
func (b *simBench) backend() *app.Backend {
	var be Backend
	b.w.app.QueueUpdate(func() { be = b.w.be })
	return be.(*app.Backend)
}

// waitModel polls the model until cond holds.
func (b *simBench) waitModel(what string, cond func(m *Model) bool) {
	b.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		ok := false
		b.model(func(m *Model) { ok = cond(m) })
		if ok {
			return
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("timed out waiting for %s; screen:\n%s", what, b.text())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// events returns a session's whole log.
func events(t *testing.T, ag *agent.Agent, sessionID string) []event.Event {
	t.Helper()
	evs, err := ag.Log().Read(context.Background(), sessionID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}
