package providertest

import (
	"context"
	"errors"
	"testing"
	"time"

	"pincer/core/provider"
)

// collect ranges over one Stream and returns its events and last error.
func collect(p provider.Provider, ctx context.Context, req provider.Request) ([]provider.Event, error) {
	var evs []provider.Event
	var last error
	for ev, err := range p.Stream(ctx, req) {
		if err != nil {
			last = err
			continue
		}
		evs = append(evs, ev)
	}
	return evs, last
}

func TestStepsInOrderThenDone(t *testing.T) {
	boom := errors.New("boom")
	s := &Scripted{Steps: []Step{ToolCalls(ToolCall("c1", "Read", `{"x":1}`)), {Err: boom}}}
	evs, err := collect(s, context.Background(), provider.Request{Model: "a"})
	if err != nil || len(evs) != 2 || evs[0].ToolCall.ToolCallID != "c1" || evs[1].FinishReason != "tool_calls" {
		t.Fatalf("step 1: %+v %v", evs, err)
	}
	if _, err := collect(s, context.Background(), provider.Request{Model: "b"}); !errors.Is(err, boom) {
		t.Fatalf("step 2: err %v, want boom", err)
	}
	evs, err = collect(s, context.Background(), provider.Request{Model: "c"})
	if err != nil || len(evs) != 2 || evs[0].Text != "done" {
		t.Fatalf("past the script: %+v %v", evs, err)
	}
	if s.Calls() != 3 || s.Request(1).Model != "b" || len(s.Requests()) != 3 || s.Name() != "fake" {
		t.Errorf("recorded %d requests, second %q, name %q", s.Calls(), s.Request(1).Model, s.Name())
	}
}

func TestLoopAndRespond(t *testing.T) {
	loop := Text("again")
	s := &Scripted{Loop: &loop, Steps: []Step{Text("never")}}
	for range 3 {
		if evs, _ := collect(s, context.Background(), provider.Request{}); evs[0].Text != "again" {
			t.Fatalf("loop answered %q", evs[0].Text)
		}
	}
	var seen []int
	r := &Scripted{ProviderName: "r", Respond: func(n int, req provider.Request) Step {
		seen = append(seen, n)
		return Text(req.Model)
	}}
	r.Push(Text("ignored"))
	if evs, _ := collect(r, context.Background(), provider.Request{Model: "m1"}); evs[0].Text != "m1" {
		t.Errorf("respond answered %q", evs[0].Text)
	}
	collect(r, context.Background(), provider.Request{Model: "m2"})
	if len(seen) != 2 || seen[1] != 2 || r.Name() != "r" {
		t.Errorf("respond saw %v, name %q", seen, r.Name())
	}
}

func TestBlockAndCancel(t *testing.T) {
	s := &Scripted{Steps: []Step{{Events: []provider.Event{{Type: provider.EventTextDelta, Text: "partial"}}, Block: true}}}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(10*time.Millisecond, cancel)
	evs, err := collect(s, ctx, provider.Request{})
	if len(evs) != 1 || !errors.Is(err, context.Canceled) {
		t.Fatalf("blocked step: %+v %v", evs, err)
	}
	// A gap is cut short by the context as well.
	g := &Scripted{Steps: []Step{{Events: TextEvents("slow"), Gap: time.Hour}}}
	ctx2, cancel2 := context.WithCancel(context.Background())
	time.AfterFunc(10*time.Millisecond, cancel2)
	evs, err = collect(g, ctx2, provider.Request{})
	if len(evs) != 0 || !errors.Is(err, context.Canceled) {
		t.Fatalf("gap: %+v %v", evs, err)
	}
}

func TestConsumerStops(t *testing.T) {
	s := &Scripted{Steps: []Step{{Events: TextEvents("a"), Err: errors.New("never seen")}}}
	n := 0
	for range s.Stream(context.Background(), provider.Request{}) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("yielded %d after the consumer stopped", n)
	}
}

func TestToolCallsKeepsCallersSlice(t *testing.T) {
	calls := make([]provider.Event, 1, 4)
	calls[0] = ToolCall("a", "T", "{}")
	ToolCalls(calls...)
	if got := calls[:2][1]; got.Type != 0 {
		t.Errorf("ToolCalls wrote into the caller's slice: %+v", got)
	}
}
