// Package provider is the boundary between pincer and a model API. A Provider turns a
// Request (transcript view + tools) into a stream of Events: text and reasoning
// deltas, completed tool calls, usage, and one final Done. Nothing outside this
// package and its sub-packages sees a wire type.
//
// Sub-packages implement one wire API each (openai: Chat Completions and its
// compatibles; anthropic, gemini, responses), each configured by a Config that embeds
// HTTPConfig; registry builds the adapter a wire API name names; sse reads
// Server-Sent Events per the WHATWG specification; providertest is the scripted
// Provider for the tests of the packages above.
package provider

import (
	"context"
	"encoding/json"
	"iter"

	"pincer/core/message"
)

// ToolSpec describes a tool to the model: its name, description and the JSON Schema
// of its input (an object schema).
type ToolSpec struct {
	Name        string
	Description string
	Schema      json.RawMessage
}

// Request is one model call. Messages is the provider view of the transcript (already
// repaired: every tool call answered), starting with the system message if any.
type Request struct {
	Model     string
	Messages  []message.Message
	Tools     []ToolSpec
	MaxTokens int // 0: the provider's default
	// WebSearch, when set, declares the provider's server-side web search tool
	// (Anthropic's web_search_20250305) for this call; adapters whose API has
	// none ignore it.
	WebSearch *WebSearch
}

// WebSearch configures a server-side web search tool for one model call: at
// most MaxUses searches (> 0), results only from AllowedDomains or never from
// BlockedDomains (Anthropic takes one list or the other, at declaration).
type WebSearch struct {
	MaxUses        int
	AllowedDomains []string
	BlockedDomains []string
}

// EventType names a stream event.
type EventType int

// Stream event types.
const (
	// EventTextDelta carries Text: a piece of the assistant's visible answer.
	EventTextDelta EventType = iota + 1
	// EventReasoningDelta carries Text: a piece of reasoning ("thinking"), kept apart
	// from the answer; Signature is set when the provider signs the reasoning.
	EventReasoningDelta
	// EventToolCall carries ToolCall: one tool call whose arguments are complete (or
	// marked Truncated when a length finish cut them off).
	EventToolCall
	// EventUsage carries Usage: the tokens of this call so far (may come more than
	// once; later values replace earlier ones field by field when non-zero).
	EventUsage
	// EventDone carries FinishReason as the provider sent it ("stop", "tool_calls",
	// "length", ...; empty when none was sent). It is the last event of a stream.
	EventDone
	// EventToolCallStart carries ToolCall with only ToolCallID and ToolName: a
	// tool call whose name is known while its arguments still stream (once per
	// call, before its EventToolCall). ToolCallID may be empty when the server
	// has not sent one yet (the EventToolCall then has the id). Adapters whose
	// wire sends a call whole emit none.
	EventToolCallStart
	// EventServerBlock carries Block (Type message.PartServerBlock): one complete
	// content block of a tool the provider's server ran (a web search call or its
	// results), in stream order, to be kept in the assistant message.
	EventServerBlock
	// EventRetry carries Text: why the call is tried again and when ("HTTP
	// 500: retrying in 1.2s (attempt 2 of 4)"), for the person to see (new
	// user r24: the retries were silent). Nothing of the failed attempt
	// reached the consumer; it is informational and comes before any other
	// event of the attempt it announces.
	EventRetry
)

// Event is one item of a provider stream.
type Event struct {
	Type         EventType
	Text         string
	Signature    string
	ToolCall     message.Part // Type == message.PartToolCall
	Block        message.Part // Type == message.PartServerBlock
	Usage        message.Usage
	FinishReason string
}

// Provider is a model API. Stream yields events until EventDone or an error; an error
// ends the stream and is an *Error whose message is one readable line. The stream
// stops early when ctx ends (yielding ctx.Err()) or when the consumer stops ranging.
type Provider interface {
	// Name is the provider's name as in a model ID ("openai" in "openai/gpt-4o").
	Name() string
	Stream(ctx context.Context, req Request) iter.Seq2[Event, error]
}
