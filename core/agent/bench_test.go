package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"pincer/core/message"
	"pincer/core/provider/openai"
	"pincer/core/provider/openai/openaitest"
	"pincer/core/provider/providertest"

	"pincer/core/permission"
	"pincer/core/provider"
	"pincer/persist"
	"pincer/persist/badger"
	"pincer/persist/memory"
	"pincer/sandbox"
	"pincer/tools"
)

// BenchmarkLoopIteration measures the loop's own cost per model call: a scripted
// in-process provider that answers with one short text and no tools, a memory store.
// Each op is one turn of one iteration (lease, user message, repair view, stream,
// assistant message, events).
func BenchmarkLoopIteration(b *testing.B) {
	st := providertest.Step{Events: []provider.Event{
		{Type: provider.EventTextDelta, Text: "ok"}, {Type: provider.EventDone, FinishReason: "stop"}}}
	benchTurns(b, memory.New(), &providertest.Scripted{Loop: &st})
}

// BenchmarkLoopIterationBadger is BenchmarkLoopIteration over Badger (in memory).
func BenchmarkLoopIterationBadger(b *testing.B) {
	st := providertest.Step{Events: []provider.Event{
		{Type: provider.EventTextDelta, Text: "ok"}, {Type: provider.EventDone, FinishReason: "stop"}}}
	store, err := badger.OpenInMemory()
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	benchTurns(b, store, &providertest.Scripted{Loop: &st})
}

// BenchmarkLoopIterationHTTP is one iteration against the fake Chat Completions
// server over loopback HTTP, through the real provider and SSE parser, on Badger (in
// memory): the whole per-iteration cost of the loop except the model's own latency.
func BenchmarkLoopIterationHTTP(b *testing.B) {
	srv := openaitest.New()
	defer srv.Close()
	store, err := badger.OpenInMemory()
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	benchTurns(b, store, openai.New(openai.Config{HTTPConfig: provider.HTTPConfig{Name: "fake", BaseURL: srv.BaseURL()}}))
}

func benchTurns(b *testing.B, store persist.Store, prov provider.Provider) {
	ws, err := sandbox.NewWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	ag, err := New(Config{Store: store, Provider: prov, Model: "m", Tools: tools.NewRegistry(),
		Workspace: ws, PermissionMode: permission.ModeDefault, SystemPrompt: "s"})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// A fresh session per op keeps the transcript (and so the repair) constant.
		sess, err := ag.CreateSession(ctx)
		if err != nil {
			b.Fatal(err)
		}
		res, err := ag.SubmitTurn(ctx, sess.ID, "hi")
		if err != nil || res.Outcome != OutcomeCompleted {
			b.Fatalf("turn: %v %v", res.Outcome, err)
		}
	}
}

// BenchmarkResume10k measures what resuming a 10,000-message session costs before the
// first model call: loading the transcript from Badger (on disk) and building the
// repaired provider view.
func BenchmarkResume10k(b *testing.B) {
	store, err := badger.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	ctx := context.Background()
	const sid = "bench-session"
	for i := 0; i < 10000; i++ {
		for _, m := range seedMessages(sid, i) {
			if _, err := store.AppendMessage(ctx, m); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		msgs, err := store.ListMessages(ctx, sid)
		if err != nil || len(msgs) != 10000 {
			b.Fatalf("%d messages, %v", len(msgs), err)
		}
		if v := RepairView(msgs); len(v) == 0 {
			b.Fatal("empty view")
		}
	}
}

// seedMessages returns the i-th message of a synthetic session cycling user,
// assistant-with-tool-call, tool result, assistant text (about 200 bytes each).
func seedMessages(sid string, i int) []message.Message {
	text := strings.Repeat("lorem ipsum ", 16)
	id := fmt.Sprintf("call-%d", i/4)
	var m message.Message
	switch i % 4 {
	case 0:
		m = message.NewText(message.RoleUser, text)
	case 1:
		m = message.Message{Role: message.RoleAssistant, Parts: []message.Part{{Type: message.PartToolCall, ToolCallID: id, ToolName: "Read", Input: `{"file_path":"a.go"}`}}}
	case 2:
		m = message.NewToolResult(id, "Read", text, false)
	default:
		m = message.NewText(message.RoleAssistant, text)
	}
	m.SessionID = sid
	return []message.Message{m}
}
