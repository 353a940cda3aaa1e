package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/core/permission"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/tools"
)

func seqd(msgs ...message.Message) []message.Message {
	for i := range msgs {
		msgs[i].Seq = uint64(i + 1)
	}
	return msgs
}

func TestCompactionBoundaryNeverSplitsToolCalls(t *testing.T) {
	big := strings.Repeat("x", 400) // ~100 tokens
	msgs := seqd(
		message.NewText(message.RoleSystem, "sys"),
		message.NewText(message.RoleUser, big),
		assistant("", call("a")), result("a", big),
		assistant("", call("b")), result("b", big),
		assistant(big),
		message.NewText(message.RoleUser, big),
		assistant("", call("c")), result("c", big),
	)
	for keep := int64(50); keep <= 1000; keep += 50 {
		cut, ok := compactionBoundary(msgs, 1, keep)
		if !ok {
			continue
		}
		if msgs[cut].Role == message.RoleTool {
			t.Fatalf("keep %d: cut at a tool result (index %d)", keep, cut)
		}
		if cut < 3 {
			t.Fatalf("keep %d: cut %d leaves less than two messages to summarise", keep, cut)
		}
	}
	if _, ok := compactionBoundary(msgs[:3], 1, 10); ok {
		t.Error("compacted a history of two messages")
	}
	cut, _ := compactionBoundary(msgs, 1, 250)
	if tail := EstimateTokens(msgs[cut:]); tail > 250 {
		t.Errorf("kept %d tokens with keep 250 (cut %d)", tail, cut)
	}
}

func TestBuildView(t *testing.T) {
	sys := message.NewText(message.RoleSystem, "static part\n<!-- pincer:dynamic -->\nold dynamic")
	comp := message.Message{Role: message.RoleCompaction, Parts: []message.Part{{Type: message.PartText, Text: "SUMMARY"}},
		Compaction: &message.Compaction{BoundarySeq: 5}}
	msgs := seqd(sys, message.NewText(message.RoleUser, "old"), assistant("", call("a")), result("a", "r"),
		message.NewText(message.RoleUser, "recent"), assistant("", call("b")), comp)
	view := buildView(msgs, "new dynamic", "RULES")
	got := shape(view)
	want := []string{"system:static part\n<!-- pincer:dynamic -->\nnew dynamic", "user:" + view[1].Text(), "user:recent", "assistant:+b", "tool:b=" + InterruptedResult}
	if len(got) != len(want) {
		t.Fatalf("view %q", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("view[%d] = %q, want %q", i, got[i], want[i])
		}
	}
	if !strings.Contains(view[1].Text(), "SUMMARY") || !strings.Contains(view[1].Text(), "RULES") {
		t.Errorf("summary message %q", view[1].Text())
	}
	// Without a compaction record the view is the repaired transcript.
	plain := buildView(msgs[:4], "", "")
	if len(plain) != 4 || plain[0].Text() != sys.Text() {
		t.Errorf("plain view %q", shape(plain))
	}
}

// compactingProvider answers summary requests with a summary and other requests
// from a script, where nil events are a context-length refusal; its Scripted records
// every request.
type compactingProvider struct {
	*providertest.Scripted
	summaries int // summary requests answered
	calls     int // other requests answered
}

func newCompacting(script func(n int, req provider.Request) []provider.Event) *compactingProvider {
	c := &compactingProvider{}
	c.Scripted = &providertest.Scripted{ProviderName: "compacting", Respond: func(_ int, req provider.Request) providertest.Step {
		if last := req.Messages[len(req.Messages)-1].Text(); strings.HasPrefix(last, "Summarise the conversation") {
			c.summaries++
			return providertest.Text(fmt.Sprintf("Goal: finish. Summary #%d.", c.summaries))
		}
		c.calls++
		if evs := script(c.calls, req); evs != nil {
			return providertest.Step{Events: evs}
		}
		return providertest.Step{Err: &provider.Error{Provider: "compacting", Kind: provider.KindContextLength, Status: 400, Message: "too long"}}
	}}
	return c
}

func TestLongSessionCompactsTwiceAndFinishes(t *testing.T) {
	big := strings.Repeat("data ", 400) // ~500 tokens per tool result
	reader := &fakeTool{name: "R", kind: tools.KindRead, run: func(context.Context, []byte) (tools.Result, error) {
		return tools.Result{Output: big}, nil
	}}
	prov := newCompacting(func(n int, req provider.Request) []provider.Event {
		if n <= 8 {
			return []provider.Event{providertest.ToolCall(fmt.Sprintf("c%d", n), "R", fmt.Sprintf(`{"x":"%d"}`, n)),
				{Type: provider.EventDone, FinishReason: "tool_calls"}}
		}
		return providertest.TextEvents("all done")
	})
	store := memory.New()
	h := newHarnessWith(t, nil, store, Config{ContextWindow: 2000, PermissionMode: permission.ModeDefault}, reader)
	h.ag.cfg.Provider = prov
	res := h.submit(context.Background(), "read everything")
	if res.Outcome != OutcomeCompleted || res.FinalText != "all done" {
		t.Fatalf("outcome %s %q %v", res.Outcome, res.FinalText, res.Err)
	}
	comps := eventsOf(h.events(), event.CompactionCompleted)
	if len(comps) < 2 {
		t.Fatalf("%d compactions, want at least 2", len(comps))
	}
	for _, ev := range comps {
		d := mustDecode[event.CompactionCompletedData](t, ev)
		if d.AfterTokens >= d.BeforeTokens {
			t.Errorf("compaction did not shrink the view: %+v", d)
		}
	}
	// The stored transcript is whole: all 8 results are there.
	if n := len(h.toolResults()); n != 8 {
		t.Errorf("%d tool results stored, want 8", n)
	}
	// Every request after the first compaction fits the window's threshold.
	for i, req := range prov.Requests() {
		if est := EstimateTokens(req.Messages); est > 2000 {
			t.Errorf("request %d has ~%d tokens, over the 2000 window", i, est)
		}
	}
	// A new agent over the same store rebuilds the compacted view.
	prov2 := &providertest.Scripted{}
	h2 := newHarnessWith(t, prov2, store, Config{ContextWindow: 2000})
	h2.sess = h.sess
	h2.submit(context.Background(), "and now?")
	view := prov2.Request(0).Messages
	if !strings.Contains(view[1].Text(), "Summary #") {
		t.Errorf("after restart the view does not start from the summary: %q", shape(view)[:2])
	}
}

func TestContextLengthErrorCompactsAndRetriesOnce(t *testing.T) {
	prov := newCompacting(func(n int, req provider.Request) []provider.Event {
		if n == 1 {
			return nil // context length refusal
		}
		return providertest.TextEvents("fits now")
	})
	h := newHarnessWith(t, nil, memory.New(), Config{})
	h.ag.cfg.Provider = prov
	ctx := context.Background()
	for _, m := range []message.Message{message.NewText(message.RoleUser, "old question"), assistant("old answer"),
		message.NewText(message.RoleUser, "another"), assistant("reply")} {
		m.SessionID = h.sess.ID
		if _, err := h.store.AppendMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	res := h.submit(ctx, "go")
	if res.Outcome != OutcomeCompleted || prov.summaries != 1 || prov.calls != 2 {
		t.Fatalf("outcome %s, %d summaries, %d calls", res.Outcome, prov.summaries, prov.calls)
	}
	// A refusal that persists after the compaction fails the turn: no loop.
	prov2 := newCompacting(func(int, provider.Request) []provider.Event { return nil })
	h.ag.cfg.Provider = prov2
	res = h.submit(ctx, "again")
	if res.Outcome != OutcomeFailed || prov2.calls != 2 {
		t.Errorf("persistent refusal: %s after %d calls", res.Outcome, prov2.calls)
	}
}

func TestCompactCommand(t *testing.T) {
	prov := newCompacting(func(int, provider.Request) []provider.Event { return providertest.TextEvents("ok") })
	h := newHarnessWith(t, nil, memory.New(), Config{})
	h.ag.cfg.Provider = prov
	for i := 0; i < 3; i++ {
		h.submit(context.Background(), fmt.Sprintf("question %d", i))
	}
	before := len(h.messages())
	res := h.submit(context.Background(), "/compact keep the API decisions")
	if res.Outcome != OutcomeCompleted || res.StopReason != "compacted" || prov.summaries != 1 {
		t.Fatalf("outcome %s/%s, %d summaries", res.Outcome, res.StopReason, prov.summaries)
	}
	msgs := h.messages()
	if len(msgs) != before+1 || msgs[len(msgs)-1].Role != message.RoleCompaction || msgs[len(msgs)-1].Compaction.Focus != "keep the API decisions" {
		t.Errorf("after /compact: %d messages (was %d), last %+v", len(msgs), before, msgs[len(msgs)-1])
	}
	last := prov.Requests()[len(prov.Requests())-1].Messages
	if !strings.Contains(last[len(last)-1].Text(), "keep the API decisions") {
		t.Error("the focus did not reach the summary request")
	}
}

func TestInitCommandAsksForAgentsMD(t *testing.T) {
	prov := &providertest.Scripted{}
	h := newHarness(t, prov, permission.ModeDefault)
	h.submit(context.Background(), "/init")
	msgs := prov.Request(0).Messages
	if last := msgs[len(msgs)-1].Text(); !strings.Contains(last, "AGENTS.md") {
		t.Errorf("/init sent %q", last)
	}
	use, err := h.ag.EstimateContext(context.Background(), h.sess.ID)
	if err != nil || use.Tokens <= 0 || use.Messages != 3 {
		t.Errorf("EstimateContext = %+v, %v", use, err)
	}
}

func TestDynamicPromptReadOncePerModelCall(t *testing.T) {
	r := &fakeTool{name: "R", kind: tools.KindRead}
	prov := &providertest.Scripted{Steps: []providertest.Step{providertest.ToolCalls(providertest.ToolCall("c", "R", `{"x":"1"}`))}}
	reads := 0
	h := newHarnessWith(t, prov, memory.New(), Config{ContextWindow: 100000,
		DynamicPrompt: func() string { reads++; return "dyn" }}, r)
	h.submit(context.Background(), "go")
	if reads != prov.Calls() {
		t.Errorf("dynamic prompt read %d times for %d model calls", reads, prov.Calls())
	}
}

// TestEstimateContextBeforeTheFirstTurn (new user r22 #9: /context said ~0
// tokens, 0 messages): before any turn the estimate counts the system
// prompt the first turn stores and the tool definitions it offers; after
// the turn the same system message is counted once, from the store.
func TestEstimateContextBeforeTheFirstTurn(t *testing.T) {
	r := &fakeTool{name: "R", kind: tools.KindRead}
	prov := &providertest.Scripted{}
	sp := strings.Repeat("You are pincer. ", 100) // 1,600 bytes: ~400 tokens
	h := newHarnessWith(t, prov, memory.New(), Config{SystemPrompt: sp}, r)
	before, err := h.ag.EstimateContext(context.Background(), h.sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if before.Messages != 1 || before.Tools != 1 || before.ToolTokens <= 0 || before.Tokens < 400+before.ToolTokens {
		t.Errorf("before the first turn: %+v, want the system prompt (~400 tokens) and 1 tool counted", before)
	}
	fresh, err := h.ag.EstimateContext(context.Background(), "")
	if err != nil || fresh != before {
		t.Errorf("a new session's estimate = %+v, %v; want %+v", fresh, err, before)
	}
	h.submit(context.Background(), "hi")
	after, err := h.ag.EstimateContext(context.Background(), h.sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after.Messages < 3 || after.Tokens <= before.Tokens || after.Tokens > before.Tokens+100 {
		t.Errorf("after one turn: %+v (before %+v): the system prompt counted twice or not at all", after, before)
	}
}
