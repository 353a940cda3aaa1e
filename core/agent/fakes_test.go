package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist"
	"pincer/persist/memory"
	"pincer/sandbox"
	"pincer/tools"
)

// fakeTool is a configurable tool for loop tests.
type fakeTool struct {
	name     string
	schema   string // input schema; default: one required string property x
	kind     tools.Kind
	safe     bool
	run      func(ctx context.Context, input []byte) (tools.Result, error)
	active   atomic.Int32
	maxSeen  atomic.Int32
	runCount atomic.Int32
}

func (f *fakeTool) Spec() tools.Spec {
	schema := f.schema
	if schema == "" {
		schema = `{"type":"object","properties":{"x":{"type":"string"}},"required":["x"],"additionalProperties":false}`
	}
	return tools.Spec{Name: f.name, Description: "fake " + f.name, Schema: json.RawMessage(schema), Kind: f.kind, ConcurrencySafe: f.safe}
}
func (f *fakeTool) Summary(input json.RawMessage) string       { return f.name + " " + string(input) }
func (f *fakeTool) Paths(*tools.Env, json.RawMessage) []string { return nil }
func (f *fakeTool) Run(ctx context.Context, env *tools.Env, input json.RawMessage) (tools.Result, error) {
	f.runCount.Add(1)
	n := f.active.Add(1)
	defer f.active.Add(-1)
	for {
		m := f.maxSeen.Load()
		if n <= m || f.maxSeen.CompareAndSwap(m, n) {
			break
		}
	}
	if f.run != nil {
		return f.run(ctx, input)
	}
	return tools.Result{Output: f.name + " ran with " + string(input)}, nil
}

// harness is an agent over a memory store with a scripted provider.
type harness struct {
	t     *testing.T
	store persist.Store
	prov  *providertest.Scripted
	ag    *Agent
	sess  persist.Session
}

func newHarness(t *testing.T, prov *providertest.Scripted, mode permission.Mode, ts ...tools.Tool) *harness {
	t.Helper()
	return newHarnessWith(t, prov, memory.New(), Config{PermissionMode: mode}, ts...)
}

func newHarnessWith(t *testing.T, prov *providertest.Scripted, store persist.Store, cfg Config, ts ...tools.Tool) *harness {
	t.Helper()
	ws, err := sandbox.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg.Store, cfg.Tools, cfg.Workspace = store, tools.NewRegistry(ts...), ws
	if prov != nil {
		cfg.Provider = prov
	}
	cfg.Model, cfg.ModelName = "m", "fake/m"
	if cfg.SystemPrompt == "" {
		cfg.SystemPrompt = "You are a test."
	}
	if cfg.DeltaInterval == 0 {
		cfg.DeltaInterval = time.Millisecond
	}
	ag, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := ag.CreateSession(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, store: store, prov: prov, ag: ag, sess: sess}
}

func (h *harness) submit(ctx context.Context, input string) TurnResult {
	h.t.Helper()
	res, err := h.ag.SubmitTurn(ctx, h.sess.ID, input)
	if err != nil {
		h.t.Fatalf("SubmitTurn: %v", err)
	}
	return res
}

func (h *harness) messages() []message.Message {
	h.t.Helper()
	msgs, err := h.store.ListMessages(context.Background(), h.sess.ID)
	if err != nil {
		h.t.Fatal(err)
	}
	return msgs
}

func (h *harness) events() []event.Event {
	h.t.Helper()
	evs, err := h.store.ListEvents(context.Background(), h.sess.ID, 0, 0)
	if err != nil {
		h.t.Fatal(err)
	}
	for i, ev := range evs {
		if ev.Sequence != uint64(i+1) {
			h.t.Fatalf("event %d has sequence %d: gap or disorder", i, ev.Sequence)
		}
	}
	return evs
}

// toolResults returns the stored tool results by call ID, failing on a duplicate.
func (h *harness) toolResults() map[string]message.Part {
	h.t.Helper()
	out := map[string]message.Part{}
	for _, m := range h.messages() {
		if r, ok := m.ToolResult(); ok {
			if _, dup := out[r.ToolCallID]; dup {
				h.t.Fatalf("two results for %s", r.ToolCallID)
			}
			out[r.ToolCallID] = r
		}
	}
	return out
}

func eventsOf(evs []event.Event, t event.Type) []event.Event {
	var out []event.Event
	for _, ev := range evs {
		if ev.Type == t {
			out = append(out, ev)
		}
	}
	return out
}

func lastEvent(evs []event.Event) event.Event { return evs[len(evs)-1] }

// leaseStealer wraps a store and fails lease renewals on demand.
type leaseStealer struct {
	persist.Store
	steal atomic.Bool
}

func (l *leaseStealer) RenewLease(ctx context.Context, id, owner string, ttl time.Duration) (bool, error) {
	if l.steal.Load() {
		return false, nil
	}
	return l.Store.RenewLease(ctx, id, owner, ttl)
}

var errBoom = errors.New("boom")

func mustDecode[T any](t *testing.T, ev event.Event) T {
	t.Helper()
	var v T
	if err := ev.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", ev.Type, err)
	}
	return v
}

func fmtParts(m message.Message) string { return fmt.Sprintf("%s:%q", m.Role, m.Text()) }
