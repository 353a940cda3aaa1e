package agent

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/core/permission"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
	"pincer/persist"
	"pincer/persist/memory"
	"pincer/tools"
)

// testSpawner builds children over the parent's store and log, each with the
// provider scripted for its description, the given tools and no Spawner.
type testSpawner struct {
	t        *testing.T
	parent   func() *Agent
	provs    map[string]*providertest.Scripted // by SpawnRequest.Description
	tools    []tools.Tool
	readOnly map[string]bool
	mu       sync.Mutex
	reqs     []SpawnRequest
	modes    []permission.Mode
}

func (s *testSpawner) Spawn(ctx context.Context, req SpawnRequest) (*Spawned, error) {
	prov, ok := s.provs[req.Description]
	if !ok {
		return nil, errors.New("no such agent type")
	}
	p := s.parent()
	ag, err := New(Config{Store: p.Store(), Log: p.Log(), Provider: prov, Model: "m", ModelName: "fake/m",
		Tools: tools.NewRegistry(s.tools...), Workspace: p.cfg.Workspace, SystemPrompt: "You are a subagent.",
		PermissionMode: req.ParentMode, MaxIterations: DefaultSubagentIterations, DeltaInterval: time.Millisecond,
		Subagents: p.Subagents(), OwnerCommand: "pincer subagent"})
	if err != nil {
		return nil, err
	}
	sess, err := ag.CreateLinkedSession(ctx, persist.Session{ParentID: req.ParentSessionID,
		ParentToolCallID: req.ToolCallID, AgentType: req.AgentType})
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	s.modes = append(s.modes, req.ParentMode)
	s.mu.Unlock()
	return &Spawned{Agent: ag, Session: sess}, nil
}

func (s *testSpawner) Listing() string        { return "- Explore: searches\n- general-purpose: anything" }
func (s *testSpawner) ReadOnly(t string) bool { return s.readOnly[t] }

// newSubHarness is a parent harness whose agent has sp as Spawner.
func newSubHarness(t *testing.T, prov *providertest.Scripted, sp *testSpawner, ts ...tools.Tool) *harness {
	t.Helper()
	var h *harness
	sp.t, sp.parent = t, func() *Agent { return h.ag }
	h = newHarnessWith(t, prov, memory.New(), Config{PermissionMode: permission.ModeDefault, Spawner: sp, Teams: true}, ts...)
	return h
}

func agentArgs(desc, prompt, typ string, extra string) string {
	return `{"description":"` + desc + `","prompt":"` + prompt + `","subagent_type":"` + typ + `"` + extra + `}`
}

// toolResultText is the text of the tool result for call id in req.
func toolResultText(req provider.Request, id string) (string, bool) {
	for _, m := range req.Messages {
		if r, ok := m.ToolResult(); ok && r.ToolCallID == id {
			return r.Text, true
		}
	}
	return "", false
}

// Two Explore subagents of one response run at the same time (each child's
// tool waits until both are inside it), the parent's next request carries
// only their final texts with ID and usage, every step is in the child
// sessions, linked to the parent, and the parent's log announces both.
func TestAgentToolParallelChildrenFinalTextOnly(t *testing.T) {
	var barrier sync.WaitGroup
	barrier.Add(2)
	both := make(chan struct{})
	go func() { barrier.Wait(); close(both) }()
	probe := &fakeTool{name: "Probe", kind: tools.KindRead, safe: true, run: func(ctx context.Context, input []byte) (tools.Result, error) {
		barrier.Done()
		select {
		case <-both:
			return tools.Result{Output: "secret step output"}, nil
		case <-time.After(10 * time.Second):
			return tools.Result{Output: "ran alone"}, nil
		}
	}}
	child := func(final string) *providertest.Scripted {
		return &providertest.Scripted{Steps: []providertest.Step{
			providertest.ToolCalls(providertest.ToolCall("p1", "Probe", `{"x":"look"}`)),
			providertest.Text(final),
		}}
	}
	sp := &testSpawner{provs: map[string]*providertest.Scripted{"find a": child("A is in a.go"), "find b": child("B is in b.go")},
		tools: []tools.Tool{probe}, readOnly: map[string]bool{"Explore": true}}
	parent := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(
			providertest.ToolCall("c1", "Agent", agentArgs("find a", "Find A.", "Explore", "")),
			providertest.ToolCall("c2", "Task", agentArgs("find b", "Find B.", "Explore", ""))),
		providertest.Text("both found"),
	}}
	h := newSubHarness(t, parent, sp)
	res := h.submit(context.Background(), "find both")
	if res.Outcome != OutcomeCompleted {
		t.Fatalf("outcome %s: %v", res.Outcome, res.Err)
	}
	if probe.maxSeen.Load() != 2 {
		t.Fatalf("the two children's tool calls overlapped %d at most: they did not run in parallel", probe.maxSeen.Load())
	}
	second := parent.Request(1)
	for id, want := range map[string]string{"c1": "A is in a.go", "c2": "B is in b.go"} {
		got, ok := toolResultText(second, id)
		if !ok || !strings.HasPrefix(got, want+"\n") || !strings.Contains(got, "agentId: ") || !strings.Contains(got, "<usage>model_calls: 2") {
			t.Errorf("result of %s = %q, want %q then agentId and usage", id, got, want)
		}
	}
	for _, m := range second.Messages {
		if strings.Contains(m.Text(), "secret step output") || strings.Contains(m.Text(), "Find A.") {
			t.Fatalf("a child's step reached the parent's request: %s", fmtParts(m))
		}
	}
	if names := specNames(parent.Request(0).Tools); !slices.Contains(names, "Agent") || slices.Contains(names, "Task") {
		t.Errorf("parent offered %v: want Agent, never Task", names)
	}
	for _, d := range []string{"find a", "find b"} {
		if names := specNames(sp.provs[d].Request(0).Tools); slices.Contains(names, "Agent") {
			t.Errorf("a child was offered the Agent tool: %v", names)
		}
	}
	evs := h.events()
	started, done := eventsOf(evs, event.SubagentStarted), eventsOf(evs, event.SubagentCompleted)
	if len(started) != 2 || len(done) != 2 {
		t.Fatalf("parent log has %d subagent.started, %d subagent.completed; want 2 and 2", len(started), len(done))
	}
	kids := h.ag.Subagents().Children(h.sess.ID)
	if len(kids) != 2 {
		t.Fatalf("children %v", kids)
	}
	for _, ev := range started {
		d := mustDecode[event.SubagentStartedData](t, ev)
		if ev.TurnID != res.TurnID || d.AgentType != "Explore" {
			t.Errorf("subagent.started %+v of turn %s", d, ev.TurnID)
		}
		cs, err := h.store.GetSession(context.Background(), d.ChildSessionID)
		if err != nil || cs.ParentID != h.sess.ID || cs.ParentToolCallID != d.ToolCallID || cs.AgentType != "Explore" {
			t.Errorf("child session %+v (%v): not linked to its parent", cs, err)
		}
		msgs, _ := h.store.ListMessages(context.Background(), d.ChildSessionID)
		if !slices.ContainsFunc(msgs, func(m message.Message) bool { r, ok := m.ToolResult(); return ok && r.Text == "secret step output" }) {
			t.Errorf("child %s lost its step", d.ChildSessionID)
		}
	}
	for _, ev := range done {
		d := mustDecode[event.SubagentCompletedData](t, ev)
		if d.Outcome != "completed" || d.ModelCalls != 2 {
			t.Errorf("subagent.completed %+v", d)
		}
	}
}

func specNames(specs []provider.ToolSpec) []string {
	var out []string
	for _, s := range specs {
		out = append(out, s.Name)
	}
	return out
}

// A general-purpose (not read-only) subagent runs in order with the other
// calls of its response.
func TestAgentToolWritingChildRunsInOrder(t *testing.T) {
	sp := &testSpawner{provs: map[string]*providertest.Scripted{"w": {Steps: []providertest.Step{providertest.Text("wrote")}}}}
	in := &fakeTool{name: "Look", kind: tools.KindRead, safe: true}
	h := newSubHarness(t, &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "Agent", agentArgs("w", "Write.", "general-purpose", "")),
			providertest.ToolCall("c2", "Look", `{"x":"y"}`)),
		providertest.Text("ok")}}, sp, in)
	tl := h.ag.agentTool
	if tl.concurrent(json.RawMessage(agentArgs("w", "W", "general-purpose", ""))) {
		t.Fatal("a general-purpose Agent call is concurrent")
	}
	for _, extra := range []string{`,"isolation":"worktree"`, `,"run_in_background":true`} {
		if !tl.concurrent(json.RawMessage(agentArgs("w", "W", "general-purpose", extra))) {
			t.Errorf("an Agent call with %s is not concurrent", extra)
		}
	}
	if res := h.submit(context.Background(), "go"); res.Outcome != OutcomeCompleted {
		t.Fatalf("outcome %s: %v", res.Outcome, res.Err)
	}
}

// A background subagent returns at once with its ID; its result reaches the
// parent's next model call as a system reminder, and subagent.completed (no
// turn) lands in the parent's log.
func TestAgentToolBackgroundResultReachesNextCall(t *testing.T) {
	release := make(chan struct{})
	slow := &fakeTool{name: "Slow", kind: tools.KindRead, safe: true, run: func(ctx context.Context, input []byte) (tools.Result, error) {
		<-release
		return tools.Result{Output: "slow done"}, nil
	}}
	sp := &testSpawner{tools: []tools.Tool{slow}, provs: map[string]*providertest.Scripted{"bg": {Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("s1", "Slow", `{"x":"1"}`)), providertest.Text("background finding: 42")}}}}
	parent := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "Agent", agentArgs("bg", "Compute.", "general-purpose", `,"run_in_background":true`))),
		providertest.Text("started it"),
		providertest.Text("got 42"),
	}}
	h := newSubHarness(t, parent, sp)
	res := h.submit(context.Background(), "start it")
	if res.Outcome != OutcomeCompleted {
		t.Fatalf("outcome %s: %v", res.Outcome, res.Err)
	}
	got, _ := toolResultText(parent.Request(1), "c1")
	if !strings.Contains(got, "agentId: ") || strings.Contains(got, "background finding") {
		t.Fatalf("background call's result %q: want the ID at once", got)
	}
	running := h.ag.Subagents().Running(h.sess.ID)
	if len(running) != 1 || !running[0].Background {
		t.Fatalf("running children %+v", running)
	}
	close(release)
	// The child may end before WaitAll is called (here it has, by Wait): its
	// result is WaitAll's all the same, once.
	if r, err := h.ag.Subagents().Wait(context.Background(), running[0].SessionID); err != nil || r.Outcome != OutcomeCompleted {
		t.Fatalf("the background child: %+v, %v", r, err)
	}
	if all, err := h.ag.Subagents().WaitAll(context.Background(), h.sess.ID); err != nil || len(all) != 1 || all[0].SessionID != running[0].SessionID {
		t.Fatalf("WaitAll after the child ended = %+v, %v; want its result", all, err)
	}
	if again, _ := h.ag.Subagents().WaitAll(context.Background(), h.sess.ID); len(again) != 0 {
		t.Fatalf("a second WaitAll returned %d results again", len(again))
	}
	h.submit(context.Background(), "what did it find?")
	last := parent.Request(2)
	found := false
	for _, m := range last.Messages {
		if m.Role == message.RoleUser && strings.Contains(m.Text(), "<system-reminder>") && strings.Contains(m.Text(), "background finding: 42") {
			found = true
		}
	}
	if !found {
		t.Fatal("the background result did not reach the parent's next model call")
	}
	done := eventsOf(h.events(), event.SubagentCompleted)
	if len(done) != 1 || done[0].TurnID != "" || !mustDecode[event.SubagentCompletedData](t, done[0]).Background {
		t.Fatalf("subagent.completed %+v", done)
	}
}

// Cancelling the parent's turn cancels its children, foreground and
// background: each child turn ends cancelled, each subagent.completed says so.
func TestCancelParentCancelsChildren(t *testing.T) {
	block := func() *providertest.Scripted {
		return &providertest.Scripted{Steps: []providertest.Step{{Events: []provider.Event{{Type: provider.EventTextDelta, Text: "thinking"}}, Block: true}}}
	}
	sp := &testSpawner{provs: map[string]*providertest.Scripted{"bg": block(), "fg": block()}}
	parent := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "Agent", agentArgs("bg", "Wait.", "general-purpose", `,"run_in_background":true`))),
		providertest.ToolCalls(providertest.ToolCall("c2", "Agent", agentArgs("fg", "Wait.", "general-purpose", ""))),
	}}
	h := newSubHarness(t, parent, sp)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for sp.provs["bg"].Calls() == 0 || sp.provs["fg"].Calls() == 0 { // both children's turns are at their model
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	res := h.submit(ctx, "go")
	if res.Outcome != OutcomeCancelled {
		t.Fatalf("parent outcome %s", res.Outcome)
	}
	wctx, wcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer wcancel()
	results, err := h.ag.Subagents().WaitAll(wctx, h.sess.ID)
	if err != nil {
		t.Fatalf("the background child still runs after its parent's turn was cancelled: %v", err)
	}
	for _, c := range h.ag.Subagents().Children(h.sess.ID) {
		r, _ := h.ag.Subagents().Wait(context.Background(), c.SessionID)
		if r.Outcome != OutcomeCancelled {
			t.Errorf("child %s (%s) ended %s, want cancelled", c.SessionID, c.Description, r.Outcome)
		}
		evs, _ := h.store.ListEvents(context.Background(), c.SessionID, 0, 0)
		if lastEvent(evs).Type != event.TurnCancelled {
			t.Errorf("child %s's last event is %s", c.SessionID, lastEvent(evs).Type)
		}
	}
	_ = results
	for _, ev := range eventsOf(h.events(), event.SubagentCompleted) {
		if d := mustDecode[event.SubagentCompletedData](t, ev); d.Outcome != "cancelled" {
			t.Errorf("subagent.completed %+v", d)
		}
	}
}

// A child runs in the parent's permission mode in force at the call.
func TestChildGetsParentsMode(t *testing.T) {
	sp := &testSpawner{provs: map[string]*providertest.Scripted{"p": {}}}
	h := newSubHarness(t, &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "Agent", agentArgs("p", "Plan.", "Plan", ""))), providertest.Text("ok")}}, sp)
	h.ag.SetPermissionMode(permission.ModePlan)
	h.submit(context.Background(), "plan")
	if !reflect.DeepEqual(sp.modes, []permission.Mode{permission.ModePlan}) {
		t.Fatalf("spawned with modes %v", sp.modes)
	}
}

// A spawn the spawner refuses (unknown type) is the call's error result.
func TestAgentToolUnknownTypeIsToolError(t *testing.T) {
	sp := &testSpawner{provs: map[string]*providertest.Scripted{}}
	h := newSubHarness(t, &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "Agent", agentArgs("nope", "X.", "Nope", ""))), providertest.Text("ok")}}, sp)
	h.submit(context.Background(), "go")
	r := h.toolResults()["c1"]
	if !r.IsError || !strings.Contains(r.Text, "no such agent type") {
		t.Fatalf("result %+v", r)
	}
}

// The schema and the typed input name the same fields.
func TestAgentSchemaMatchesInput(t *testing.T) {
	var schema struct {
		Properties map[string]any `json:"properties"`
	}
	if err := json.Unmarshal([]byte(agentSchema), &schema); err != nil {
		t.Fatal(err)
	}
	var fields []string
	rt := reflect.TypeOf(agentInput{})
	for i := range rt.NumField() {
		fields = append(fields, strings.Split(rt.Field(i).Tag.Get("json"), ",")[0])
	}
	var props []string
	for k := range schema.Properties {
		props = append(props, k)
	}
	slices.Sort(fields)
	slices.Sort(props)
	if !slices.Equal(fields, props) {
		t.Fatalf("schema %v, struct %v", props, fields)
	}
}

func TestChildResultText(t *testing.T) {
	base := ChildResult{ChildInfo: ChildInfo{SessionID: "kid"}, ModelCalls: 3,
		Usage: message.Usage{InputTokens: 10, OutputTokens: 5}, Duration: 1500 * time.Millisecond}
	cases := []struct {
		name string
		mod  func(*ChildResult)
		want []string
		not  []string
	}{
		{"completed", func(r *ChildResult) { r.Outcome, r.Text = OutcomeCompleted, "  the answer \n" },
			[]string{"the answer\n\nagentId: kid\n<usage>model_calls: 3\ninput_tokens: 10\noutput_tokens: 5\nduration_ms: 1500</usage>"}, []string{"did not finish", "worktree"}},
		{"empty", func(r *ChildResult) { r.Outcome = OutcomeCompleted }, []string{"without a final message"}, nil},
		{"failed", func(r *ChildResult) { r.Outcome, r.Err, r.Text = OutcomeFailed, errors.New("budget"), "half" },
			[]string{"did not finish: budget", "Its last message:\nhalf"}, nil},
		{"cancelled", func(r *ChildResult) { r.Outcome = OutcomeCancelled }, []string{"cancelled before it finished"}, []string{"without a final"}},
		{"worktree", func(r *ChildResult) {
			r.Outcome, r.Text, r.Worktree, r.Branch, r.DiffStat = OutcomeCompleted, "edited", "/w", "pincer/x", " a.go | 1 +\n"
		}, []string{"worktree: /w\nbranch: pincer/x\nchanges:\n a.go | 1 +\n<usage>"}, nil},
		{"worktree unchanged", func(r *ChildResult) { r.Outcome, r.Worktree, r.Branch = OutcomeCompleted, "/w", "b" }, []string{"changes: none"}, nil},
	}
	for _, c := range cases {
		r := base
		c.mod(&r)
		got := childResultText(r)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", c.name, got, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(got, w) {
				t.Errorf("%s: %q has %q", c.name, got, w)
			}
		}
	}
}

// A team member's life: started in the background, it ends its turn; a
// message delivered to it then runs another turn with the message as its
// prompt, and each end reaches the parent.
func TestStartBackgroundAndDeliver(t *testing.T) {
	kid := &providertest.Scripted{Steps: []providertest.Step{providertest.Text("hello lead"), providertest.Text("got your note")}}
	sp := &testSpawner{provs: map[string]*providertest.Scripted{"member": kid}}
	h := newSubHarness(t, &providertest.Scripted{}, sp)
	ctx := context.Background()
	info, err := h.ag.StartBackground(ctx, SpawnRequest{ParentSessionID: h.sess.ID, AgentType: "general-purpose",
		Description: "member", Team: "t", Member: "alice"}, "Say hello.")
	if err != nil {
		t.Fatal(err)
	}
	subs := h.ag.Subagents()
	if r, err := subs.Wait(ctx, info.SessionID); err != nil || r.Text != "hello lead" {
		t.Fatalf("first run %+v %v", r, err)
	}
	if err := subs.Deliver(ctx, info.SessionID, "a note from the lead"); err != nil {
		t.Fatal(err)
	}
	r, err := subs.Wait(ctx, info.SessionID)
	if err != nil || r.Text != "got your note" {
		t.Fatalf("second run %+v %v", r, err)
	}
	if last := kid.Request(1).Messages; last[len(last)-1].Text() != "a note from the lead" {
		t.Fatalf("the member's second request ends with %q", last[len(last)-1].Text())
	}
	if n := len(eventsOf(h.events(), event.SubagentCompleted)); n != 2 {
		t.Fatalf("%d subagent.completed in the lead's log, want 2", n)
	}
	if !h.ag.HasReminders(h.sess.ID) {
		t.Fatal("the lead has no reminder of its member's results")
	}
	if err := subs.Deliver(ctx, "nosuch", "x"); !errors.Is(err, ErrNoSuchChild) {
		t.Fatalf("Deliver to nobody: %v", err)
	}
}

// A child cancelled before its turn started (the parent's turn cancelled at
// once) ends cancelled, not failed.
func TestChildCancelledBeforeItsTurnStarted(t *testing.T) {
	sp := &testSpawner{provs: map[string]*providertest.Scripted{"bg": {}}}
	h := newSubHarness(t, &providertest.Scripted{}, sp)
	ctx, cancel := context.WithCancel(context.Background())
	req := SpawnRequest{ParentSessionID: h.sess.ID, AgentType: "general-purpose", Description: "bg", Background: true,
		ParentMode: permission.ModeDefault}
	r, err := h.ag.startChild(ctx, req, "")
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	h.ag.Subagents().Cancel(r.info.SessionID)
	if res := h.ag.runChild(r, "never", ""); res.Outcome != OutcomeCancelled {
		t.Fatalf("outcome %s (%v)", res.Outcome, res.Err)
	}
}
