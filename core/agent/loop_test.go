package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/core/permission"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/tools"
)

func TestPreconditionNoProvider(t *testing.T) {
	h := newHarnessWith(t, nil, memory.New(), Config{})
	_, err := h.ag.SubmitTurn(context.Background(), h.sess.ID, "hi")
	if !errors.Is(err, ErrNoProvider) {
		t.Fatalf("err = %v, want ErrNoProvider", err)
	}
	if n := len(h.messages()); n != 0 {
		t.Errorf("a turn without provider stored %d messages", n)
	}
}

// TestNoProviderSaysWhy (new user r24 #4): with the reason the composition
// root knows (a configuration that did not parse), the error says it, and
// is still ErrNoProvider.
func TestNoProviderSaysWhy(t *testing.T) {
	why := errors.New("the configuration does not parse (config.toml:1:29: …)")
	h := newHarnessWith(t, nil, memory.New(), Config{NoProvider: why})
	_, err := h.ag.SubmitTurn(context.Background(), h.sess.ID, "hi")
	if !errors.Is(err, ErrNoProvider) || !errors.Is(err, why) || !strings.Contains(err.Error(), "config.toml:1:29") || strings.Contains(err.Error(), "PINCER_API_KEY") {
		t.Fatalf("err = %v, want ErrNoProvider saying why", err)
	}
}

func TestPreconditionActiveTurn(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{{Block: true}}}
	h := newHarness(t, prov, permission.ModeDefault)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan TurnResult)
	go func() { res, _ := h.ag.SubmitTurn(ctx, h.sess.ID, "first"); done <- res }()
	waitFor(t, func() bool { return prov.Calls() == 1 })
	_, err := h.ag.SubmitTurn(context.Background(), h.sess.ID, "second")
	if !errors.Is(err, ErrTurnActive) {
		t.Errorf("second submit err = %v, want ErrTurnActive", err)
	}
	cancel()
	if res := <-done; res.Outcome != OutcomeCancelled {
		t.Errorf("first turn outcome = %s", res.Outcome)
	}
}

func TestPreconditionLeaseHeld(t *testing.T) {
	h := newHarness(t, &providertest.Scripted{}, permission.ModeDefault)
	if ok, _, err := h.store.AcquireLease(context.Background(), h.sess.ID, "other-process", time.Minute); !ok || err != nil {
		t.Fatal("could not take the lease for the other owner")
	}
	_, err := h.ag.SubmitTurn(context.Background(), h.sess.ID, "hi")
	if !errors.Is(err, ErrLeaseHeld) || !strings.Contains(err.Error(), "other-process") {
		t.Fatalf("err = %v, want ErrLeaseHeld naming the holder", err)
	}
	if h.prov.Calls() != 0 {
		t.Error("the provider was called without the lease")
	}
}

func TestSystemOnceUserBeforeModel(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{{Err: &provider.Error{Provider: "fake", Kind: provider.KindServer, Status: 503, Message: "down"}}}}
	h := newHarness(t, prov, permission.ModeDefault)
	res := h.submit(context.Background(), "please do it")
	if res.Outcome != OutcomeFailed || res.StopReason != event.ReasonProvider {
		t.Fatalf("outcome %s/%s, want failed/provider", res.Outcome, res.StopReason)
	}
	msgs := h.messages()
	if len(msgs) != 2 || msgs[0].Role != message.RoleSystem || msgs[1].Text() != "please do it" {
		t.Fatalf("transcript after a failed call: %v", msgs)
	}
	if len(prov.Request(0).Messages) != 2 {
		t.Errorf("the provider did not get system+user")
	}
	h.submit(context.Background(), "again")
	systems := 0
	for _, m := range h.messages() {
		if m.Role == message.RoleSystem {
			systems++
		}
	}
	if systems != 1 {
		t.Errorf("%d system messages after two turns, want 1", systems)
	}
	last := lastEvent(h.events())
	if last.Type != event.TurnCompleted {
		t.Errorf("second turn ended with %s", last.Type)
	}
}

func TestIterationBudget(t *testing.T) {
	echo := &fakeTool{name: "Echo", kind: tools.KindRead, safe: true}
	st := providertest.ToolCalls(providertest.ToolCall("c", "Echo", `{"x":"1"}`))
	prov := &providertest.Scripted{Loop: &st}
	h := newHarnessWith(t, prov, memory.New(), Config{MaxIterations: 3}, echo)
	res := h.submit(context.Background(), "loop forever")
	if res.Outcome != OutcomeFailed || res.StopReason != event.ReasonMaxIterations {
		t.Fatalf("outcome %s/%s, want failed/max_iterations", res.Outcome, res.StopReason)
	}
	if prov.Calls() != 3 || res.Iterations != 3 {
		t.Errorf("model calls = %d (result says %d), want 3", prov.Calls(), res.Iterations)
	}
	last := lastEvent(h.events())
	if d := mustDecode[event.TurnFailedData](t, last); last.Type != event.TurnFailed || d.Reason != event.ReasonMaxIterations {
		t.Errorf("last event %s %+v", last.Type, d)
	}
}

func TestStreamingDeltasReasoningUsage(t *testing.T) {
	var evs []provider.Event
	evs = append(evs, provider.Event{Type: provider.EventReasoningDelta, Text: "thinking "})
	evs = append(evs, provider.Event{Type: provider.EventReasoningDelta, Text: "hard", Signature: "sig"})
	for i := 0; i < 200; i++ {
		evs = append(evs, provider.Event{Type: provider.EventTextDelta, Text: "x"})
	}
	cost := 0.25
	evs = append(evs,
		provider.Event{Type: provider.EventUsage, Usage: message.Usage{InputTokens: 10, OutputTokens: 5}},
		provider.Event{Type: provider.EventUsage, Usage: message.Usage{OutputTokens: 7, CacheReadTokens: 3, CostUSD: &cost}},
		provider.Event{Type: provider.EventDone, FinishReason: "stop"})
	prov := &providertest.Scripted{Steps: []providertest.Step{{Events: evs}}}
	h := newHarnessWith(t, prov, memory.New(), Config{DeltaInterval: time.Hour})
	res := h.submit(context.Background(), "hi")
	if res.Outcome != OutcomeCompleted || res.FinalText != strings.Repeat("x", 200) {
		t.Fatalf("outcome %s text %q", res.Outcome, res.FinalText)
	}
	all := h.events()
	deltas := eventsOf(all, event.MessageDelta)
	var text, reasoning strings.Builder
	for _, ev := range deltas {
		d := mustDecode[event.MessageDeltaData](t, ev)
		switch d.Kind {
		case "text":
			text.WriteString(d.Delta)
		case "reasoning":
			reasoning.WriteString(d.Delta)
		default:
			t.Errorf("delta kind %q", d.Kind)
		}
	}
	if text.String() != strings.Repeat("x", 200) || reasoning.String() != "thinking hard" {
		t.Errorf("deltas text %q reasoning %q", text.String(), reasoning.String())
	}
	// With a one-hour interval, 202 deltas coalesce into a handful of events.
	if len(deltas) > 4 {
		t.Errorf("%d message.delta events for 202 deltas: not coalesced", len(deltas))
	}
	msgs := h.messages()
	am := msgs[len(msgs)-1]
	if am.Reasoning() != "thinking hard" || am.Parts[0].Signature != "sig" || am.Text() != strings.Repeat("x", 200) {
		t.Errorf("assistant message parts %+v", am.Parts)
	}
	u := mustDecode[event.UsageData](t, eventsOf(all, event.UsageReported)[0])
	if u.InputTokens != 10 || u.OutputTokens != 7 || u.CacheReadTokens != 3 || u.CostUSD == nil || *u.CostUSD != 0.25 {
		t.Errorf("usage event %+v", u)
	}
	if res.Usage.OutputTokens != 7 {
		t.Errorf("turn usage %+v", res.Usage)
	}
}

func TestDeltaRateLimited(t *testing.T) {
	// 300 deltas over ~300 ms with the default interval must not produce one event each.
	var evs []provider.Event
	for i := 0; i < 300; i++ {
		evs = append(evs, provider.Event{Type: provider.EventTextDelta, Text: "y"})
	}
	evs = append(evs, provider.Event{Type: provider.EventDone, FinishReason: "stop"})
	prov := &providertest.Scripted{Steps: []providertest.Step{{Events: evs, Gap: time.Millisecond}}}
	h := newHarnessWith(t, nil, memory.New(), Config{DeltaInterval: DefaultDeltaInterval})
	h.ag.cfg.Provider = prov
	start := time.Now()
	h.submit(context.Background(), "hi")
	elapsed := time.Since(start)
	n := len(eventsOf(h.events(), event.MessageDelta))
	limit := int(elapsed/DefaultDeltaInterval) + 2
	if n > limit {
		t.Errorf("%d delta events in %v: more than ~30 per second (limit %d)", n, elapsed, limit)
	}
}

func TestToolCallsFromStructuredCallsNotFinishReason(t *testing.T) {
	echo := &fakeTool{name: "Echo", kind: tools.KindRead, safe: true}
	prov := &providertest.Scripted{Steps: []providertest.Step{
		// a tool call with finish "stop": still run
		{Events: []provider.Event{providertest.ToolCall("c1", "Echo", `{"x":"a"}`), {Type: provider.EventDone, FinishReason: "stop"}}},
		// finish "tool_calls" without calls: the turn ends
		{Events: []provider.Event{{Type: provider.EventTextDelta, Text: "ok"}, {Type: provider.EventDone, FinishReason: "tool_calls"}}},
	}}
	h := newHarness(t, prov, permission.ModeDefault, echo)
	res := h.submit(context.Background(), "go")
	if echo.runCount.Load() != 1 || res.Outcome != OutcomeCompleted || prov.Calls() != 2 {
		t.Fatalf("runs=%d outcome=%s calls=%d", echo.runCount.Load(), res.Outcome, prov.Calls())
	}
}

func TestToolCallFailuresBecomeResults(t *testing.T) {
	echo := &fakeTool{name: "Echo", kind: tools.KindRead, safe: true}
	panicky := &fakeTool{name: "Panic", kind: tools.KindRead, run: func(context.Context, []byte) (tools.Result, error) { panic("kaboom") }}
	failing := &fakeTool{name: "Fail", kind: tools.KindRead, run: func(context.Context, []byte) (tools.Result, error) { return tools.Result{}, errBoom }}
	truncated := providertest.ToolCall("t1", "Echo", `{"x":"cut`)
	truncated.ToolCall.Truncated = true
	prov := &providertest.Scripted{Steps: []providertest.Step{providertest.ToolCalls(
		providertest.ToolCall("u1", "Nope", `{}`),
		providertest.ToolCall("j1", "Echo", `{"x":`),
		providertest.ToolCall("s1", "Echo", `{"y":"1"}`),
		providertest.ToolCall("ok1", "Echo", `{"x":"1"}`),
		providertest.ToolCall("d1", "Echo", `{"x":"1"}`),
		providertest.ToolCall("p1", "Panic", `{"x":"1"}`),
		providertest.ToolCall("f1", "Fail", `{"x":"1"}`),
		truncated,
	)}}
	h := newHarness(t, prov, permission.ModeDefault, echo, panicky, failing)
	res := h.submit(context.Background(), "go")
	if res.Outcome != OutcomeCompleted {
		t.Fatalf("outcome %s: %v", res.Outcome, res.Err)
	}
	want := map[string]string{
		"u1":  `Tool failed: unknown tool "Nope"`,
		"j1":  "Tool failed: the arguments are not a JSON object",
		"s1":  "Tool failed: invalid input:",
		"ok1": "Echo ran with",
		"d1":  "Duplicate tool call rejected",
		"p1":  "Tool failed: internal error in Panic: kaboom",
		"f1":  "Tool failed: boom",
		"t1":  "Tool call was cut off",
	}
	results := h.toolResults()
	if len(results) != len(want) {
		t.Errorf("%d results for %d calls", len(results), len(want))
	}
	for id, prefix := range want {
		r, ok := results[id]
		if !ok || !strings.HasPrefix(r.Text, prefix) {
			t.Errorf("result %s = %q, want prefix %q", id, r.Text, prefix)
		}
		if id != "ok1" && !r.IsError {
			t.Errorf("result %s not marked as an error", id)
		}
	}
	if !strings.Contains(results["s1"].Text, "x") {
		t.Errorf("schema error does not name the missing property: %q", results["s1"].Text)
	}
	if echo.runCount.Load() != 1 {
		t.Errorf("Echo ran %d times, want 1 (duplicate, truncated and invalid calls must not run)", echo.runCount.Load())
	}
	// One tool.completed per call; tool.started only for calls that ran.
	evs := h.events()
	if n := len(eventsOf(evs, event.ToolCompleted)); n != len(want) {
		t.Errorf("%d tool.completed for %d calls", n, len(want))
	}
	if n := len(eventsOf(evs, event.ToolStarted)); n != 3 {
		t.Errorf("%d tool.started, want 3 (Echo, Panic, Fail)", n)
	}
}

func TestPermissionModes(t *testing.T) {
	cases := []struct {
		mode      permission.Mode
		kind      tools.Kind
		ran       bool
		reasonHas string
	}{
		{permission.ModeDefault, tools.KindRead, true, ""},
		{permission.ModeDefault, tools.KindExecute, false, "--permission-mode bypassPermissions"},
		{permission.ModeDefault, tools.KindEdit, false, "acceptEdits"},
		{permission.ModeAcceptEdits, tools.KindEdit, true, ""},
		{permission.ModeAcceptEdits, tools.KindExecute, false, "bypassPermissions"},
		{permission.ModeBypass, tools.KindExecute, true, ""},
		{permission.ModePlan, tools.KindEdit, false, "plan mode"},
	}
	for _, c := range cases {
		t.Run(string(c.mode)+"/"+string(c.kind), func(t *testing.T) {
			tl := &fakeTool{name: "T", kind: c.kind}
			prov := &providertest.Scripted{Steps: []providertest.Step{providertest.ToolCalls(providertest.ToolCall("c", "T", `{"x":"1"}`))}}
			h := newHarness(t, prov, c.mode, tl)
			h.submit(context.Background(), "go")
			if got := tl.runCount.Load() == 1; got != c.ran {
				t.Fatalf("ran = %v, want %v", got, c.ran)
			}
			r := h.toolResults()["c"]
			if !c.ran && (!strings.HasPrefix(r.Text, "Permission denied: ") || !strings.Contains(r.Text, c.reasonHas)) {
				t.Errorf("denial result %q, want a reason containing %q", r.Text, c.reasonHas)
			}
			// The view shows a refused call with its command and who refused it
			// (NU3: a plan-mode denial read "✗ Bash failed").
			done := eventsOf(h.events(), event.ToolCompleted)
			if len(done) != 1 {
				t.Fatalf("tool.completed events = %d, want 1", len(done))
			}
			d := mustDecode[event.ToolCompletedData](t, done[0])
			if d.Summary == "" {
				t.Errorf("tool.completed has no summary: %+v", d)
			}
			if wantBy := !c.ran; (d.DeniedBy != "") != wantBy || (c.mode == permission.ModePlan && d.DeniedBy != "mode:plan") {
				t.Errorf("tool.completed DeniedBy = %q (ran %v)", d.DeniedBy, c.ran)
			}
			asked := len(eventsOf(h.events(), event.PermissionRequested))
			if c.mode == permission.ModeDefault && c.kind != tools.KindRead && asked != 1 {
				t.Errorf("permission.requested events = %d, want 1", asked)
			}
		})
	}
}

type approveAll struct{}

func (approveAll) Approve(context.Context, string, string, permission.Input, permission.Decision) Approval {
	return Approval{Decision: permission.Decision{Behavior: permission.Allow, Reason: "user said yes", By: "user"}, Scope: "once"}
}

func TestApproverAllows(t *testing.T) {
	tl := &fakeTool{name: "T", kind: tools.KindExecute}
	prov := &providertest.Scripted{Steps: []providertest.Step{providertest.ToolCalls(providertest.ToolCall("c", "T", `{"x":"1"}`))}}
	h := newHarnessWith(t, prov, memory.New(), Config{Approver: approveAll{}}, tl)
	h.submit(context.Background(), "go")
	if tl.runCount.Load() != 1 {
		t.Fatal("an approved call did not run")
	}
	res := eventsOf(h.events(), event.PermissionResolved)
	if len(res) != 1 || mustDecode[event.PermissionResolvedData](t, res[0]).Decision != "allow" {
		t.Errorf("permission.resolved events %v", res)
	}
}

func TestParallelReadsSerialOtherwise(t *testing.T) {
	gate := make(chan struct{})
	reader := &fakeTool{name: "R", kind: tools.KindRead, safe: true}
	reader.run = func(ctx context.Context, _ []byte) (tools.Result, error) {
		// Each read waits until all three run at once (or a timeout): proof of parallelism.
		select {
		case <-gate:
		case <-time.After(2 * time.Second):
		}
		return tools.Result{Output: "r"}, nil
	}
	go func() {
		for reader.active.Load() < 3 {
			time.Sleep(time.Millisecond)
		}
		close(gate)
	}()
	prov := &providertest.Scripted{Steps: []providertest.Step{providertest.ToolCalls(
		providertest.ToolCall("a", "R", `{"x":"1"}`), providertest.ToolCall("b", "R", `{"x":"2"}`), providertest.ToolCall("c", "R", `{"x":"3"}`))}}
	h := newHarness(t, prov, permission.ModeDefault, reader)
	h.submit(context.Background(), "go")
	if reader.maxSeen.Load() != 3 {
		t.Errorf("max concurrent reads = %d, want 3", reader.maxSeen.Load())
	}
	// Results are stored in call order even when they finish in another.
	var order []string
	for _, m := range h.messages() {
		if r, ok := m.ToolResult(); ok {
			order = append(order, r.ToolCallID)
		}
	}
	if strings.Join(order, ",") != "a,b,c" {
		t.Errorf("result order %v", order)
	}
	// The reply's message.completed names its calls in the model's order, so
	// views can list them so however the parallel runs interleave.
	var named []string
	for _, ev := range eventsOf(h.events(), event.MessageCompleted) {
		for _, c := range mustDecode[event.MessageCompletedData](t, ev).ToolCalls {
			named = append(named, c.ToolCallID+":"+c.Name)
		}
	}
	if strings.Join(named, ",") != "a:R,b:R,c:R" {
		t.Errorf("message.completed names the calls %v, want a:R,b:R,c:R", named)
	}

	// A batch with an edit runs in order.
	r2 := &fakeTool{name: "R", kind: tools.KindRead, safe: true, run: func(context.Context, []byte) (tools.Result, error) {
		time.Sleep(20 * time.Millisecond)
		return tools.Result{Output: "r"}, nil
	}}
	w := &fakeTool{name: "W", kind: tools.KindEdit}
	prov2 := &providertest.Scripted{Steps: []providertest.Step{providertest.ToolCalls(
		providertest.ToolCall("a", "R", `{"x":"1"}`), providertest.ToolCall("b", "W", `{"x":"2"}`), providertest.ToolCall("c", "R", `{"x":"3"}`))}}
	h2 := newHarness(t, prov2, permission.ModeBypass, r2, w)
	h2.submit(context.Background(), "go")
	if r2.maxSeen.Load() != 1 || r2.runCount.Load() != 2 {
		t.Errorf("mixed batch: max concurrent reads %d, runs %d", r2.maxSeen.Load(), r2.runCount.Load())
	}
}

func TestRepairBeforeEachRequest(t *testing.T) {
	store := memory.New()
	prov := &providertest.Scripted{}
	h := newHarnessWith(t, prov, store, Config{})
	ctx := context.Background()
	// A transcript left by a crash: a tool call without its result.
	for _, m := range []message.Message{
		message.NewText(message.RoleUser, "earlier"),
		{Role: message.RoleAssistant, Parts: []message.Part{{Type: message.PartToolCall, ToolCallID: "lost", ToolName: "Read", Input: `{}`}}},
	} {
		m.SessionID = h.sess.ID
		if _, err := store.AppendMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	h.submit(ctx, "continue")
	view := prov.Request(0).Messages
	var filled bool
	for _, m := range view {
		if r, ok := m.ToolResult(); ok && r.ToolCallID == "lost" && r.Text == InterruptedResult {
			filled = true
		}
	}
	if !filled {
		t.Errorf("the provider view has no filled result for the lost call: %v", view)
	}
	for _, m := range h.messages() {
		if r, ok := m.ToolResult(); ok && r.ToolCallID == "lost" {
			t.Error("repair wrote to the stored transcript")
		}
	}
}

func TestCancelDuringStream(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{{Events: []provider.Event{{Type: provider.EventTextDelta, Text: "partial"}}, Block: true}}}
	h := newHarness(t, prov, permission.ModeDefault)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
			evs, _ := h.store.ListEvents(context.Background(), h.sess.ID, 0, 0)
			if len(eventsOf(evs, event.MessageDelta)) > 0 {
				break
			}
		}
		cancel()
	}()
	res := h.submit(ctx, "go")
	if res.Outcome != OutcomeCancelled {
		t.Fatalf("outcome %s", res.Outcome)
	}
	msgs := h.messages()
	am := msgs[len(msgs)-1]
	if am.Role != message.RoleAssistant || !am.Interrupted || am.Text() != "partial" {
		t.Errorf("interrupted message %+v", am)
	}
	if last := lastEvent(h.events()); last.Type != event.TurnCancelled {
		t.Errorf("last event %s", last.Type)
	}
	// The lease is released and the next turn continues the transcript.
	res = h.submit(context.Background(), "again")
	if res.Outcome != OutcomeCompleted {
		t.Errorf("turn after cancel: %s %v", res.Outcome, res.Err)
	}
}

func TestCancelDuringTool(t *testing.T) {
	started := make(chan struct{})
	slow := &fakeTool{name: "Slow", kind: tools.KindExecute, run: func(ctx context.Context, _ []byte) (tools.Result, error) {
		close(started)
		<-ctx.Done()
		return tools.Result{Output: "half"}, ctx.Err()
	}}
	other := &fakeTool{name: "Other", kind: tools.KindExecute}
	prov := &providertest.Scripted{Steps: []providertest.Step{providertest.ToolCalls(providertest.ToolCall("s", "Slow", `{"x":"1"}`), providertest.ToolCall("o", "Other", `{"x":"1"}`))}}
	h := newHarness(t, prov, permission.ModeBypass, slow, other)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	res := h.submit(ctx, "go")
	if res.Outcome != OutcomeCancelled {
		t.Fatalf("outcome %s", res.Outcome)
	}
	results := h.toolResults()
	if !strings.HasPrefix(results["s"].Text, "Tool execution was interrupted") || !strings.Contains(results["s"].Text, "half") {
		t.Errorf("slow result %q", results["s"].Text)
	}
	if !strings.HasPrefix(results["o"].Text, "Tool execution was interrupted") || other.runCount.Load() != 0 {
		t.Errorf("queued call result %q (ran %d)", results["o"].Text, other.runCount.Load())
	}
	if prov.Calls() != 1 {
		t.Errorf("the model was called again after cancellation")
	}
}

func TestCancelBeforeTurn(t *testing.T) {
	h := newHarness(t, &providertest.Scripted{}, permission.ModeDefault)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := h.ag.SubmitTurn(ctx, h.sess.ID, "go"); err == nil {
		t.Fatal("a cancelled context started a turn")
	}
	if len(h.messages()) != 0 {
		t.Error("a cancelled turn stored messages")
	}
}

func TestLeaseLostCancelsTurn(t *testing.T) {
	stealer := &leaseStealer{Store: memory.New()}
	prov := &providertest.Scripted{Steps: []providertest.Step{{Block: true}}}
	h := newHarnessWith(t, prov, stealer, Config{LeaseTTL: 30 * time.Millisecond})
	stealer.steal.Store(true)
	res := h.submit(context.Background(), "go")
	if res.Outcome != OutcomeFailed || res.StopReason != event.ReasonLeaseLost {
		t.Fatalf("outcome %s/%s, want failed/lease_lost", res.Outcome, res.StopReason)
	}
}

func TestHeartbeatRenewsLease(t *testing.T) {
	store := memory.New()
	release := make(chan struct{})
	slow := &fakeTool{name: "Slow", kind: tools.KindRead, run: func(ctx context.Context, _ []byte) (tools.Result, error) {
		<-release
		return tools.Result{Output: "ok"}, nil
	}}
	prov := &providertest.Scripted{Steps: []providertest.Step{providertest.ToolCalls(providertest.ToolCall("s", "Slow", `{"x":"1"}`))}}
	h := newHarnessWith(t, prov, store, Config{LeaseTTL: 250 * time.Millisecond}, slow)
	go func() { time.Sleep(1200 * time.Millisecond); close(release) }()
	res := h.submit(context.Background(), "go")
	if res.Outcome != OutcomeCompleted {
		t.Fatalf("a turn longer than the lease TTL ended %s (%v): the heartbeat did not renew", res.Outcome, res.Err)
	}
	// Released at the end: another owner can take it at once.
	if ok, _, _ := store.AcquireLease(context.Background(), h.sess.ID, "next", time.Minute); !ok {
		t.Error("the lease was not released after the turn")
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in 5s")
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func TestLeaseOfDeadProcessTakenOver(t *testing.T) {
	h := newHarness(t, &providertest.Scripted{}, permission.ModeDefault)
	ctx := context.Background()
	// pid 2^30 exceeds Linux's pid_max: no such process.
	if ok, _, _ := h.store.AcquireLease(ctx, h.sess.ID, "pid:1073741824/dead", time.Minute); !ok {
		t.Fatal("could not plant the stale lease")
	}
	if res := h.submit(ctx, "go"); res.Outcome != OutcomeCompleted {
		t.Fatalf("turn over a dead owner's lease: %s %v", res.Outcome, res.Err)
	}
	// A live process's lease is respected.
	if ok, _, _ := h.store.AcquireLease(ctx, h.sess.ID, fmt.Sprintf("pid:%d/other", os.Getpid()), time.Minute); !ok {
		t.Fatal("could not plant the live lease")
	}
	if _, err := h.ag.SubmitTurn(ctx, h.sess.ID, "go"); !errors.Is(err, ErrLeaseHeld) {
		t.Errorf("err = %v, want ErrLeaseHeld", err)
	}
}

func TestDuplicateOnlyWithNothingChangedBetween(t *testing.T) {
	reader := &fakeTool{name: "R", kind: tools.KindRead, safe: true}
	writer := &fakeTool{name: "W", kind: tools.KindEdit}
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("r1", "R", `{"x":"f"}`)),
		providertest.ToolCalls(providertest.ToolCall("r2", "R", `{"x":"f"}`)), // duplicate: nothing changed
		providertest.ToolCalls(providertest.ToolCall("w1", "W", `{"x":"f"}`)),
		providertest.ToolCalls(providertest.ToolCall("r3", "R", `{"x":"f"}`)), // after an edit: runs again
	}}
	h := newHarness(t, prov, permission.ModeBypass, reader, writer)
	h.submit(context.Background(), "go")
	res := h.toolResults()
	if !strings.HasPrefix(res["r2"].Text, "Duplicate tool call rejected") {
		t.Errorf("r2 = %q, want a duplicate rejection", res["r2"].Text)
	}
	if res["r3"].IsError || reader.runCount.Load() != 2 {
		t.Errorf("r3 = %q, reader ran %d times; want a re-read after the edit", res["r3"].Text, reader.runCount.Load())
	}
}

func TestRepeatedToolCallIDsEachGetTheirResult(t *testing.T) {
	a := &fakeTool{name: "A", kind: tools.KindRead, safe: true}
	b := &fakeTool{name: "B", kind: tools.KindRead, safe: true}
	prov := &providertest.Scripted{Steps: []providertest.Step{providertest.ToolCalls(
		providertest.ToolCall("same", "A", `{"x":"1"}`), providertest.ToolCall("same", "B", `{"x":"2"}`), providertest.ToolCall("", "A", `{"x":"3"}`))}}
	h := newHarness(t, prov, permission.ModeDefault, a, b)
	h.submit(context.Background(), "go")
	view := prov.Request(1).Messages
	seen := map[string]string{}
	for _, m := range view {
		if r, ok := m.ToolResult(); ok {
			if _, dup := seen[r.ToolCallID]; dup || r.ToolCallID == "" {
				t.Fatalf("result id %q repeated or empty", r.ToolCallID)
			}
			seen[r.ToolCallID] = r.Text
		}
	}
	if len(seen) != 3 {
		t.Fatalf("%d distinct results for 3 calls: %v", len(seen), seen)
	}
	var texts []string
	for _, v := range seen {
		texts = append(texts, v)
	}
	joined := strings.Join(texts, "|")
	if !strings.Contains(joined, "B ran") || strings.Count(joined, "A ran") != 2 {
		t.Errorf("results %v", seen)
	}
}

func TestSignedReasoningBlocksStayApart(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{{Events: []provider.Event{
		{Type: provider.EventReasoningDelta, Text: "first "}, {Type: provider.EventReasoningDelta, Text: "block"},
		{Type: provider.EventReasoningDelta, Signature: "sig1"},
		{Type: provider.EventReasoningDelta, Text: "second"}, {Type: provider.EventReasoningDelta, Signature: "sig2"},
		{Type: provider.EventTextDelta, Text: "answer"}, {Type: provider.EventDone, FinishReason: "end_turn"}}}}}
	h := newHarness(t, prov, permission.ModeDefault)
	h.submit(context.Background(), "think")
	msgs := h.messages()
	parts := msgs[len(msgs)-1].Parts
	if len(parts) != 3 || parts[0].Text != "first block" || parts[0].Signature != "sig1" ||
		parts[1].Text != "second" || parts[1].Signature != "sig2" || parts[2].Text != "answer" {
		t.Errorf("parts %+v", parts)
	}
}

func TestLoopDetectionEndsTheTurn(t *testing.T) {
	w := &fakeTool{name: "W", kind: tools.KindEdit}
	st := providertest.ToolCalls(providertest.ToolCall("", "W", `{"x":"same"}`))
	prov := &providertest.Scripted{Loop: &st}
	h := newHarness(t, prov, permission.ModeBypass, w)
	res := h.submit(context.Background(), "go")
	if res.Outcome != OutcomeFailed || res.StopReason != event.ReasonLoop {
		t.Fatalf("outcome %s/%s: %v", res.Outcome, res.StopReason, res.Err)
	}
	if prov.Calls() != 5 || !strings.Contains(res.Err.Error(), "W {\"x\":\"same\"}") {
		t.Errorf("%d model calls; error %v", prov.Calls(), res.Err)
	}
}

func TestWhitespaceTextNotStored(t *testing.T) {
	r := &fakeTool{name: "R", kind: tools.KindRead}
	prov := &providertest.Scripted{Steps: []providertest.Step{{Events: []provider.Event{{Type: provider.EventTextDelta, Text: "\n\n"},
		providertest.ToolCall("c", "R", `{"x":"1"}`), {Type: provider.EventDone, FinishReason: "tool_calls"}}},
		{Events: []provider.Event{{Type: provider.EventTextDelta, Text: "  "}, {Type: provider.EventDone, FinishReason: "stop"}}}}}
	h := newHarness(t, prov, permission.ModeDefault, r)
	h.submit(context.Background(), "go")
	for _, m := range h.messages() {
		for _, p := range m.Parts {
			if p.Type == message.PartText && strings.TrimSpace(p.Text) == "" {
				t.Errorf("whitespace text stored in a %s message", m.Role)
			}
		}
	}
}
