package responses

import (
	"bytes"
	"encoding/json"
	"strings"

	"pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/internal/wire"
)

// request is the body of POST /responses.
type request struct {
	Model           string         `json:"model"`
	Instructions    string         `json:"instructions,omitempty"`
	Input           []inputItem    `json:"input"`
	Tools           []functionTool `json:"tools,omitempty"`
	Stream          bool           `json:"stream"`
	Store           bool           `json:"store"`
	MaxOutputTokens int            `json:"max_output_tokens,omitempty"`
	Reasoning       *reasoning     `json:"reasoning,omitempty"`
}

// inputItem is one item of input: a message (Role, Content), a function_call
// (CallID, Name, Arguments) or a function_call_output (CallID, Output).
type inputItem struct {
	Type      string  `json:"type"`
	Role      string  `json:"role,omitempty"`
	Content   string  `json:"content,omitempty"`
	CallID    string  `json:"call_id,omitempty"`
	Name      string  `json:"name,omitempty"`
	Arguments string  `json:"arguments,omitempty"`
	Output    *string `json:"output,omitempty"`
}

// functionTool declares one function tool. Strict is sent as false: strict mode
// requires schemas that forbid additional properties and list every property as
// required, which pincer's tool schemas need not do.
type functionTool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      bool            `json:"strict"`
}

// reasoning configures a reasoning model.
type reasoning struct {
	Effort  string `json:"effort,omitempty"`
	Summary string `json:"summary,omitempty"`
}

// emptySchema stands in for a tool without a (valid) input schema.
var emptySchema = json.RawMessage(`{"type":"object","properties":{}}`)

// encodeRequest builds the JSON body for req.
func (p *Provider) encodeRequest(req provider.Request) ([]byte, error) {
	body := request{Model: req.Model, Input: convertMessages(req.Messages), Stream: true, MaxOutputTokens: max(req.MaxTokens, 0)}
	if body.Input == nil {
		body.Input = []inputItem{}
	}
	var system []string
	for _, m := range req.Messages {
		if m.Role == message.RoleSystem {
			if t := wire.JoinSystem(m.Text()); t != "" {
				system = append(system, t) // OpenAI caches prefixes by itself: no marker
			}
		}
	}
	body.Instructions = strings.Join(system, "\n\n")
	for _, t := range req.Tools {
		schema := t.Schema
		if len(bytes.TrimSpace(schema)) == 0 || !json.Valid(schema) {
			schema = emptySchema
		}
		body.Tools = append(body.Tools, functionTool{Type: "function", Name: t.Name, Description: t.Description, Parameters: schema})
	}
	if p.reasoningEffort != "" || p.reasoningSummary != "" {
		body.Reasoning = &reasoning{Effort: p.reasoningEffort, Summary: p.reasoningSummary}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(body); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// convertMessages maps the transcript view to input items:
//   - system messages are skipped (they become instructions);
//   - user text is a user message item; empty text is left out;
//   - an assistant message is an assistant message item with its text (when any),
//     then one function_call item per tool call (arguments verbatim when valid JSON,
//     "{}" otherwise, since the API rejects invalid JSON there); reasoning is not
//     sent back (stateless requests have no reasoning item ids to refer to);
//   - each tool result is a function_call_output item ("output" sent even when
//     empty).
func convertMessages(msgs []message.Message) []inputItem {
	var out []inputItem
	for _, m := range msgs {
		switch m.Role {
		case message.RoleSystem:
		case message.RoleAssistant:
			if text := m.Text(); text != "" {
				out = append(out, inputItem{Type: "message", Role: "assistant", Content: text})
			}
			for _, c := range m.ToolCalls() {
				args := c.Input
				if !json.Valid([]byte(args)) {
					args = "{}"
				}
				out = append(out, inputItem{Type: "function_call", CallID: c.ToolCallID, Name: c.ToolName, Arguments: args})
			}
		case message.RoleTool:
			for _, part := range m.Parts {
				if part.Type == message.PartToolResult {
					text := part.Text
					out = append(out, inputItem{Type: "function_call_output", CallID: part.ToolCallID, Output: &text})
				}
			}
		default:
			if text := m.Text(); text != "" {
				out = append(out, inputItem{Type: "message", Role: "user", Content: text})
			}
		}
	}
	return out
}
