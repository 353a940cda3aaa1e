package anthropic

import (
	"bytes"
	"encoding/json"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/anthropics/anthropic-sdk-go/packages/param"

	"pincer/core/message"
	"pincer/core/provider"
)

// emptySchema stands in for a tool without a (valid) input schema: Anthropic requires
// an object schema.
var emptySchema = json.RawMessage(`{"type":"object","properties":{}}`)

// buildParams maps a provider request to the SDK's parameters, plus the per-request
// options that the parameters cannot express.
func (p *Provider) buildParams(req provider.Request) (anthropic.MessageNewParams, []option.RequestOption) {
	var system []string
	for _, m := range req.Messages {
		if m.Role == message.RoleSystem {
			system = append(system, m.Text())
		}
	}
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(req.Model),
		MaxTokens: int64(p.maxTokens),
		System:    systemBlocks(system),
		Messages:  convertMessages(req.Messages),
		Tools:     convertTools(req.Tools),
	}
	if req.MaxTokens > 0 {
		params.MaxTokens = int64(req.MaxTokens)
	}
	markNewestToolResult(params.Messages)
	if ws := webSearchTool(req.WebSearch); ws != nil {
		params.Tools = append(params.Tools, *ws)
	}

	var opts []option.RequestOption
	switch {
	case p.thinking > 0:
		if params.MaxTokens <= int64(p.thinking) {
			// budget_tokens must be below max_tokens: leave the answer its usual room.
			params.MaxTokens = int64(p.thinking) + int64(p.maxTokens)
		}
		// Set as raw JSON rather than params.Thinking: for some models the SDK prints a
		// deprecation warning to stderr when it sees "enabled", which would tear a
		// terminal UI.
		opts = append(opts, option.WithJSONSet("thinking", map[string]any{
			"type": "enabled", "budget_tokens": p.thinking,
		}))
	case p.thinking < 0:
		params.Thinking = anthropic.ThinkingConfigParamUnion{OfAdaptive: &anthropic.ThinkingConfigAdaptiveParam{}}
	}
	return params, opts
}

// convertTools declares the tools, passing each input schema through verbatim; the
// last one carries a cache_control breakpoint, so the whole tools array is cached.
func convertTools(specs []provider.ToolSpec) []anthropic.ToolUnionParam {
	if len(specs) == 0 {
		return nil
	}
	out := make([]anthropic.ToolUnionParam, 0, len(specs))
	for i, t := range specs {
		schema := t.Schema
		if len(bytes.TrimSpace(schema)) == 0 || !json.Valid(schema) {
			schema = emptySchema
		}
		tool := anthropic.ToolParam{
			Name:        t.Name,
			InputSchema: param.Override[anthropic.ToolInputSchemaParam](json.RawMessage(schema)),
		}
		if t.Description != "" {
			tool.Description = anthropic.String(t.Description)
		}
		if i == len(specs)-1 {
			tool.CacheControl = anthropic.NewCacheControlEphemeralParam()
		}
		out = append(out, anthropic.ToolUnionParam{OfTool: &tool})
	}
	return out
}

// convertMessages maps the transcript view to Anthropic messages:
//   - system messages are skipped (they become the system parameter);
//   - user text becomes a text block; empty text blocks are left out (Anthropic
//     rejects them);
//   - assistant parts keep their order: signed reasoning becomes a thinking block
//     sent back unchanged (a redacted one a redacted_thinking block), unsigned
//     reasoning is dropped (Anthropic cannot verify it: another provider's, or a cut
//     stream's), text a text block, a tool call a tool_use block whose input is the
//     call's JSON (an object; "{}" when it is not valid JSON), a server block
//     (web search call and results) its stored JSON unchanged;
//   - tool results become tool_result blocks (is_error when set) of a user message.
//
// Consecutive messages of the same role are merged into one, so the parallel tool
// results of one assistant turn travel in one user message, as Anthropic requires.
// Messages left without blocks are dropped.
func convertMessages(msgs []message.Message) []anthropic.MessageParam {
	var out []anthropic.MessageParam
	appendBlocks := func(role anthropic.MessageParamRole, blocks []anthropic.ContentBlockParamUnion) {
		if len(blocks) == 0 {
			return
		}
		if n := len(out); n > 0 && out[n-1].Role == role {
			out[n-1].Content = append(out[n-1].Content, blocks...)
			return
		}
		out = append(out, anthropic.MessageParam{Role: role, Content: blocks})
	}
	for _, m := range msgs {
		switch m.Role {
		case message.RoleSystem:
		case message.RoleAssistant:
			appendBlocks(anthropic.MessageParamRoleAssistant, assistantBlocks(m))
		case message.RoleTool:
			var blocks []anthropic.ContentBlockParamUnion
			for _, part := range m.Parts {
				if part.Type == message.PartToolResult {
					blocks = append(blocks, toolResultBlock(part))
				}
			}
			appendBlocks(anthropic.MessageParamRoleUser, blocks)
		default:
			var blocks []anthropic.ContentBlockParamUnion
			for _, part := range m.Parts {
				if part.Type == message.PartText && part.Text != "" {
					blocks = append(blocks, anthropic.NewTextBlock(part.Text))
				}
			}
			appendBlocks(anthropic.MessageParamRoleUser, blocks)
		}
	}
	return out
}

// assistantBlocks maps one assistant message's parts, in order.
func assistantBlocks(m message.Message) []anthropic.ContentBlockParamUnion {
	var blocks []anthropic.ContentBlockParamUnion
	for _, part := range m.Parts {
		switch part.Type {
		case message.PartReasoning:
			if data, ok := redactedData(part.Signature); ok {
				blocks = append(blocks, anthropic.NewRedactedThinkingBlock(data))
			} else if part.Signature != "" {
				blocks = append(blocks, anthropic.NewThinkingBlock(part.Signature, part.Text))
			}
		case message.PartText:
			if part.Text != "" {
				blocks = append(blocks, anthropic.NewTextBlock(part.Text))
			}
		case message.PartServerBlock:
			if b, ok := serverBlockParam(part); ok {
				blocks = append(blocks, b)
			}
		case message.PartToolCall:
			input := json.RawMessage(part.Input)
			if !isJSONObject(input) {
				input = json.RawMessage("{}")
			}
			blocks = append(blocks, anthropic.NewToolUseBlock(part.ToolCallID, input, part.ToolName))
		}
	}
	return blocks
}

// toolResultBlock maps one tool result. Its text goes in a single text block; an
// empty result sends no content (Anthropic rejects empty text blocks).
func toolResultBlock(part message.Part) anthropic.ContentBlockParamUnion {
	b := anthropic.ToolResultBlockParam{ToolUseID: part.ToolCallID}
	if part.Text != "" {
		b.Content = []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: part.Text}}}
	}
	if part.IsError {
		b.IsError = anthropic.Bool(true)
	}
	return anthropic.ContentBlockParamUnion{OfToolResult: &b}
}

// isJSONObject reports whether raw is a valid JSON object (tool_use input must be
// one).
func isJSONObject(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && t[0] == '{' && json.Valid(t)
}
