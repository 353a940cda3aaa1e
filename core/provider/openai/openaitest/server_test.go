package openaitest_test

import (
	"context"
	"errors"
	"testing"
	"time"
	"unicode/utf8"

	"pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/openai"
	"pincer/core/provider/openai/openaitest"
)

// stream runs one request through the real openai adapter against srv.
func stream(ctx context.Context, srv *openaitest.Server, text string) (out struct {
	text, reasoning, finish string
	calls                   []message.Part
	usage                   message.Usage
	err                     error
}) {
	p := openai.New(openai.Config{HTTPConfig: provider.HTTPConfig{Name: "fake", BaseURL: srv.BaseURL(), MaxRetries: -1}})
	req := provider.Request{Model: "fake", Messages: []message.Message{message.NewText(message.RoleUser, text)}}
	for ev, err := range p.Stream(ctx, req) {
		switch {
		case err != nil:
			out.err = err
		case ev.Type == provider.EventTextDelta:
			out.text += ev.Text
		case ev.Type == provider.EventReasoningDelta:
			out.reasoning += ev.Text
		case ev.Type == provider.EventToolCall:
			out.calls = append(out.calls, ev.ToolCall)
		case ev.Type == provider.EventUsage:
			out.usage = ev.Usage
		case ev.Type == provider.EventDone:
			out.finish = ev.FinishReason
		}
	}
	return out
}

func TestScriptThroughTheAdapter(t *testing.T) {
	srv := openaitest.New(
		openaitest.Reply{Reasoning: "let me think — ünïcode", Text: "Here is a longer answer.",
			ToolCalls: []openaitest.Call{{ID: "c1", Name: "Read", Args: `{"file_path":"a.txt"}`}, {ID: "c2", Name: "Bash", Args: `{"command":"ls"}`}}},
		openaitest.Reply{Status: 429, Body: `{"error":{"message":"slow down","type":"rate_limit"}}`},
	)
	defer srv.Close()

	r := stream(context.Background(), srv, "first")
	if r.err != nil || r.text != "Here is a longer answer." || r.reasoning != "let me think — ünïcode" || r.finish != "tool_calls" {
		t.Fatalf("reply 1: %+v", r)
	}
	if len(r.calls) != 2 || r.calls[0].ToolCallID != "c1" || r.calls[1].Input != `{"command":"ls"}` {
		t.Errorf("tool calls %+v", r.calls)
	}
	if r.usage.InputTokens != 100 || r.usage.OutputTokens != 20 {
		t.Errorf("usage %+v", r.usage)
	}

	var perr *provider.Error
	if r := stream(context.Background(), srv, "second"); !errors.As(r.err, &perr) || perr.Kind != provider.KindRateLimit || perr.Message != "slow down" {
		t.Errorf("reply 2: %+v", r)
	}
	// Past the script: Default.
	if r := stream(context.Background(), srv, "third"); r.text != "done" || r.finish != "stop" {
		t.Errorf("default reply: %+v", r)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 || reqs[0]["stream"] != true {
		t.Fatalf("recorded %d requests: %v", len(reqs), reqs)
	}
	if msgs := reqs[2]["messages"].([]any); msgs[0].(map[string]any)["content"] != "third" {
		t.Errorf("third request's messages %v", msgs)
	}
}

func TestHoldEndsWithTheRequest(t *testing.T) {
	srv := openaitest.New()
	defer srv.Close()
	srv.Push(openaitest.Reply{Text: "slow answer", Hold: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	if r := stream(ctx, srv, "q"); !errors.Is(r.err, context.Canceled) || r.text == "" {
		t.Errorf("held reply: %+v", r)
	}
}

// Replies with When answer only requests whose first user message holds it:
// two sessions whose requests interleave each get their own script.
func TestReplyWhenRoutesBySession(t *testing.T) {
	srv := openaitest.New(
		openaitest.Reply{When: "child A", Text: "for A"},
		openaitest.Reply{When: "child B", Text: "for B"},
		openaitest.Reply{Text: "anyone"},
	)
	defer srv.Close()
	ctx := context.Background()
	if got := stream(ctx, srv, "task for child B please").text; got != "for B" {
		t.Fatalf("B got %q", got)
	}
	if got := stream(ctx, srv, "the parent").text; got != "anyone" {
		t.Fatalf("the parent got %q", got)
	}
	if got := stream(ctx, srv, "child A: go").text; got != "for A" {
		t.Fatalf("A got %q", got)
	}
	if got := stream(ctx, srv, "child A: again").text; got != "done" {
		t.Fatalf("a used reply answered again: %q", got)
	}
}

// TestPaceSpreadsTheStream: a paced reply takes about its chunks times Pace.
func TestPaceSpreadsTheStream(t *testing.T) {
	srv := openaitest.New()
	defer srv.Close()
	srv.Push(openaitest.Reply{Text: "0123456701234567012345670123456701234567", Pace: 20 * time.Millisecond})
	start := time.Now()
	r := stream(context.Background(), srv, "q")
	if r.err != nil || r.text != "0123456701234567012345670123456701234567" {
		t.Fatalf("paced reply: %+v", r)
	}
	if d := time.Since(start); d < 5*20*time.Millisecond { // 5 text chunks at least
		t.Fatalf("a paced reply of 5+ chunks at 20 ms streamed in %v", d)
	}
}

// A tool call's arguments are cut in two fragments on a character boundary:
// each fragment is valid UTF-8 as a JSON string must be.
func TestChunksCutArgumentsOnACharacter(t *testing.T) {
	for _, args := range []string{`{"a":"é"}`, `{"x":"日本語"}`, `{"p":"😀😀"}`, `{}`, ``} {
		chunks := openaitest.Chunks(openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c1", Name: "Write", Args: args}}})
		var joined string
		for _, c := range chunks {
			for _, ch := range c["choices"].([]any) {
				calls, _ := ch.(map[string]any)["delta"].(map[string]any)["tool_calls"].([]any)
				for _, call := range calls {
					frag := call.(map[string]any)["function"].(map[string]any)["arguments"].(string)
					if !utf8.ValidString(frag) {
						t.Errorf("args %q: fragment %q is not valid UTF-8", args, frag)
					}
					joined += frag
				}
			}
		}
		if joined != args {
			t.Errorf("fragments join to %q, want %q", joined, args)
		}
	}
}
