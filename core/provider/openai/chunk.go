package openai

import (
	"bytes"
	"encoding/json"
	"strconv"

	"pincer/core/message"
	"pincer/core/provider/internal/wire"
)

// chunk is one "chat.completion.chunk" as the OpenAI-compatible servers send it. Only
// the fields pincer reads are declared; unknown ones ("obfuscation", "x_groq.id",
// vLLM's "token_ids", llama.cpp's "timings", OpenRouter's "provider") are ignored by
// encoding/json.
type chunk struct {
	Choices []choice   `json:"choices"` // may be [] on the usage-only final chunk (case 01)
	Usage   *wireUsage `json:"usage"`   // null on every chunk but the last (OpenAI), or absent
	// XGroq carries Groq's usage copy (case 16); read only when "usage" is absent.
	XGroq *struct {
		Usage *wireUsage `json:"usage"`
	} `json:"x_groq"`
	// Error is an in-band error inside a 200 stream (OpenRouter, case 12).
	Error json.RawMessage `json:"error"`
}

// choice is one entry of "choices". Only index 0 is read (pincer never asks for n>1).
type choice struct {
	Index int    `json:"index"`
	Delta *delta `json:"delta"`
	// Message replaces Delta in a non-streamed completion (a server that ignored
	// stream=true and answered with application/json).
	Message *delta `json:"message"`
	// FinishReason is null until the end; some servers omit the key (Z.ai, case 13),
	// send it twice (OpenRouter, case 10) or follow it with a null one (case 11).
	FinishReason *string `json:"finish_reason"`
}

// delta is the incremental message of a choice.
type delta struct {
	// Content is a string, null, or (Mistral Magistral, case 15) an array of typed
	// parts {"type":"text","text"} and {"type":"thinking","thinking":[...]}.
	Content json.RawMessage `json:"content"`
	// Refusal is OpenAI's refusal text; shown to the user as answer text.
	Refusal looseString `json:"refusal"`
	// ReasoningContent is DeepSeek's, vLLM's and Z.ai's reasoning field (case 07, 13, 20).
	ReasoningContent looseString `json:"reasoning_content"`
	// Reasoning is the same thing as named by OpenRouter and Groq (case 11, 17).
	Reasoning looseString `json:"reasoning"`
	// ReasoningDetails is OpenRouter's structured reasoning (case 11): text pieces,
	// summaries and signatures.
	ReasoningDetails []reasoningDetail `json:"reasoning_details"`
	ToolCalls        []toolCallDelta   `json:"tool_calls"`
	// FunctionCall is the legacy single-function form (case 04): no id, no index.
	FunctionCall *functionDelta `json:"function_call"`
}

// reasoningDetail is one entry of OpenRouter's reasoning_details.
type reasoningDetail struct {
	Type      string `json:"type"` // "reasoning.text", "reasoning.summary", "reasoning.encrypted"
	Text      string `json:"text"`
	Summary   string `json:"summary"`
	Signature string `json:"signature"`
}

// toolCallDelta is one fragment of a tool call. OpenAI sends id, type and name on the
// first fragment of an index and only argument pieces afterwards; Mistral sends no
// index (case 14); Ollama and Z.ai send whole calls (case 13, 18).
type toolCallDelta struct {
	Index    *int          `json:"index"`
	ID       string        `json:"id"`
	Function functionDelta `json:"function"`
}

// functionDelta is the function part of a tool-call fragment.
type functionDelta struct {
	Name string `json:"name"`
	// Arguments is a JSON string holding a piece of the arguments text; a few servers
	// send the arguments as a JSON object instead, which is taken verbatim.
	Arguments json.RawMessage `json:"arguments"`
}

// argumentsText returns the piece of arguments text the fragment carries.
func (f functionDelta) argumentsText() string {
	if wire.IsNull(f.Arguments) {
		return ""
	}
	var s string
	if json.Unmarshal(f.Arguments, &s) == nil {
		return s
	}
	var buf bytes.Buffer
	if json.Compact(&buf, f.Arguments) == nil {
		return buf.String()
	}
	return string(f.Arguments)
}

// contentPart is one element of an array-valued content (Mistral).
type contentPart struct {
	Type     string          `json:"type"` // "text" or "thinking"
	Text     string          `json:"text"`
	Thinking json.RawMessage `json:"thinking"` // array of {"type":"text","text"} or a string
}

// splitContent returns the answer text and the reasoning text of a content value.
func splitContent(raw json.RawMessage) (text, reasoning string) {
	if wire.IsNull(raw) {
		return "", ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, ""
	}
	var parts []contentPart
	if json.Unmarshal(raw, &parts) != nil {
		return "", ""
	}
	var tb, rb bytes.Buffer
	for _, part := range parts {
		switch part.Type {
		case "text":
			tb.WriteString(part.Text)
		case "thinking":
			if t := wire.JSONString(part.Thinking); t != "" {
				rb.WriteString(t)
				continue
			}
			var inner []contentPart
			if json.Unmarshal(part.Thinking, &inner) == nil {
				for _, in := range inner {
					rb.WriteString(in.Text)
				}
			}
		}
	}
	return tb.String(), rb.String()
}

// wireUsage is the "usage" object with every dialect's extras pincer reads.
type wireUsage struct {
	PromptTokens        count `json:"prompt_tokens"`
	CompletionTokens    count `json:"completion_tokens"`
	PromptTokensDetails *struct {
		CachedTokens     count `json:"cached_tokens"`      // OpenAI, OpenRouter, Z.ai, vLLM
		CacheWriteTokens count `json:"cache_write_tokens"` // OpenRouter (Anthropic upstreams)
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails *struct {
		ReasoningTokens count `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
	// PromptCacheHitTokens is DeepSeek's own name for cached prompt tokens.
	PromptCacheHitTokens count `json:"prompt_cache_hit_tokens"`
	// Cost is what a proxy charged: a number of dollars (OpenRouter, case 10) or an
	// object {"usd": n} (Charm Hyper, case 09).
	Cost json.RawMessage `json:"cost"`
}

// toUsage converts the wire usage. CostUSD stays nil unless a cost was sent.
func (w *wireUsage) toUsage() message.Usage {
	u := message.Usage{
		InputTokens:  int64(w.PromptTokens),
		OutputTokens: int64(w.CompletionTokens),
	}
	if d := w.PromptTokensDetails; d != nil {
		u.CacheReadTokens = int64(d.CachedTokens)
		u.CacheWriteTokens = int64(d.CacheWriteTokens)
	}
	if u.CacheReadTokens == 0 {
		u.CacheReadTokens = int64(w.PromptCacheHitTokens)
	}
	if d := w.CompletionTokensDetails; d != nil {
		u.ReasoningTokens = int64(d.ReasoningTokens)
	}
	u.CostUSD = parseCost(w.Cost)
	return u
}

// parseCost reads a cost given as a number or as {"usd": number}.
func parseCost(raw json.RawMessage) *float64 {
	if wire.IsNull(raw) {
		return nil
	}
	var f float64
	if json.Unmarshal(raw, &f) == nil {
		return &f
	}
	var obj struct {
		USD *float64 `json:"usd"`
	}
	if json.Unmarshal(raw, &obj) == nil && obj.USD != nil {
		return obj.USD
	}
	return nil
}

// count is a token count that tolerates what servers send: integers, floats
// ("12.0"), numeric strings and null.
type count int64

// UnmarshalJSON implements json.Unmarshaler.
func (c *count) UnmarshalJSON(b []byte) error {
	s := string(bytes.Trim(bytes.TrimSpace(b), `"`))
	if s == "" || s == "null" {
		*c = 0
		return nil
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		*c = count(n)
		return nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		*c = count(f)
		return nil
	}
	*c = 0 // a count that is not a number is no count, not a broken stream
	return nil
}

// looseString is a string field that reads null, and any non-string value, as "".
// Reasoning fields vary too much across servers to fail a stream over their shape.
type looseString string

// UnmarshalJSON implements json.Unmarshaler.
func (s *looseString) UnmarshalJSON(b []byte) error {
	var v string
	if json.Unmarshal(b, &v) == nil {
		*s = looseString(v)
	} else {
		*s = ""
	}
	return nil
}
