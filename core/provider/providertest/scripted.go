// Package providertest is the scripted, in-process provider.Provider that tests of
// the packages above the providers (the agent loop, the workbench) drive a turn with:
// each request is answered with the next scripted Step, and every request is
// recorded for inspection. It speaks no wire format; the HTTP-level fake of the Chat
// Completions API, for end-to-end tests through a real adapter, is
// core/provider/openai/openaitest.
package providertest

import (
	"context"
	"iter"
	"slices"
	"sync"
	"time"

	"pincer/core/ctxwait"
	"pincer/core/message"
	"pincer/core/provider"
)

// Step is one scripted model response: Events yielded in order, Gap apart (zero: no
// wait), then Err when set. With Block the stream, after its events, waits for its
// context to end and yields ctx.Err(): a turn that runs until it is cancelled.
// A context that ends before an event is yielded ends the stream with ctx.Err().
type Step struct {
	Events []provider.Event
	Err    error
	Block  bool
	Gap    time.Duration
}

// Scripted is a provider.Provider that answers each request with a Step and records
// the requests. Which step answers: Respond when set, else Loop when set, else the
// next of Steps, else Text("done"). Set the fields before the first Stream; Push
// adds steps later. It is safe for concurrent use.
type Scripted struct {
	// ProviderName is what Name returns; "fake" when empty.
	ProviderName string
	// Steps answer the requests in order, one step each.
	Steps []Step
	// Loop, when set, answers every request (benchmarks, budget tests).
	Loop *Step
	// Respond, when set, computes the answer to every request; n counts its
	// requests from 1. It is called with the provider's lock held, so calls never
	// overlap.
	Respond func(n int, req provider.Request) Step

	mu       sync.Mutex
	requests []provider.Request
}

var _ provider.Provider = (*Scripted)(nil)

// Name returns ProviderName, or "fake".
func (s *Scripted) Name() string {
	if s.ProviderName == "" {
		return "fake"
	}
	return s.ProviderName
}

// Push appends steps to the script.
func (s *Scripted) Push(steps ...Step) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Steps = append(s.Steps, steps...)
}

// Stream records req and yields the events of the step that answers it (see Step).
func (s *Scripted) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Event, error] {
	st := s.next(req)
	return func(yield func(provider.Event, error) bool) {
		for _, ev := range st.Events {
			if err := ctxwait.Sleep(ctx, st.Gap); err != nil {
				yield(provider.Event{}, err)
				return
			}
			if !yield(ev, nil) {
				return
			}
		}
		if st.Block {
			<-ctx.Done()
			yield(provider.Event{}, ctx.Err())
			return
		}
		if st.Err != nil {
			yield(provider.Event{}, st.Err)
		}
	}
}

// next records req and picks the step that answers it.
func (s *Scripted) next(req provider.Request) Step {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, req)
	switch {
	case s.Respond != nil:
		return s.Respond(len(s.requests), req)
	case s.Loop != nil:
		return *s.Loop
	case len(s.Steps) > 0:
		st := s.Steps[0]
		s.Steps = s.Steps[1:]
		return st
	}
	return Text("done")
}

// Requests returns the requests received so far, in order.
func (s *Scripted) Requests() []provider.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]provider.Request(nil), s.requests...)
}

// Request returns the i-th request received (from 0); it panics when there is none.
func (s *Scripted) Request(i int) provider.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[i]
}

// Calls returns how many requests were received.
func (s *Scripted) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// TextEvents are the events of a plain answer: text, then EventDone "stop".
func TextEvents(text string) []provider.Event {
	return []provider.Event{{Type: provider.EventTextDelta, Text: text}, {Type: provider.EventDone, FinishReason: "stop"}}
}

// Text is the step of a plain answer (TextEvents).
func Text(text string) Step { return Step{Events: TextEvents(text)} }

// ToolCall is the event of one complete tool call.
func ToolCall(id, name, args string) provider.Event {
	return provider.Event{Type: provider.EventToolCall, ToolCall: message.Part{
		Type: message.PartToolCall, ToolCallID: id, ToolName: name, Input: args}}
}

// ToolCalls is the step of an answer that calls tools: the given tool-call events,
// then EventDone "tool_calls".
func ToolCalls(calls ...provider.Event) Step {
	evs := append(slices.Clip(calls), provider.Event{Type: provider.EventDone, FinishReason: "tool_calls"})
	return Step{Events: evs}
}

// ToolCallStart is the event of a streamed tool call whose name is known
// while its arguments still arrive (provider.EventToolCallStart).
func ToolCallStart(id, name string) provider.Event {
	return provider.Event{Type: provider.EventToolCallStart, ToolCall: message.Part{
		Type: message.PartToolCall, ToolCallID: id, ToolName: name}}
}
