package openai

import (
	"bytes"
	"encoding/json"
	"strings"

	"pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/internal/wire"
)

// chatRequest is the body of POST /chat/completions.
type chatRequest struct {
	Model         string         `json:"model"`
	Messages      []chatMessage  `json:"messages"`
	Stream        bool           `json:"stream"`
	StreamOptions *streamOptions `json:"stream_options,omitempty"`
	Tools         []chatTool     `json:"tools,omitempty"`
	// Exactly one of these carries Request.MaxTokens (Config.MaxTokensParam).
	MaxTokens           int `json:"max_tokens,omitempty"`
	MaxCompletionTokens int `json:"max_completion_tokens,omitempty"`
}

// streamOptions asks for the final usage chunk (case 01).
type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// chatMessage is one wire message. Content is a pointer so that an assistant message
// made only of tool calls sends "content": null, as OpenAI documents, rather than an
// empty string that some relays turn into an invalid empty text block.
type chatMessage struct {
	Role             string         `json:"role"`
	Content          *string        `json:"content"`
	ReasoningContent *string        `json:"reasoning_content,omitempty"` // nil: not sent; "" is sent
	ToolCalls        []chatToolCall `json:"tool_calls,omitempty"`
	ToolCallID       string         `json:"tool_call_id,omitempty"`
}

// chatToolCall is a tool call of an assistant message sent back to the model.
type chatToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function chatFunction `json:"function"`
}

// chatFunction is the function part of chatToolCall; Arguments is JSON text.
type chatFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// chatTool declares one tool.
type chatTool struct {
	Type     string      `json:"type"`
	Function chatToolDef `json:"function"`
}

// chatToolDef is a tool's name, description and JSON Schema parameters.
type chatToolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// emptySchema stands in for a tool without a (valid) input schema.
var emptySchema = json.RawMessage(`{"type":"object","properties":{}}`)

// encodeRequest builds the JSON body for req.
func (p *Provider) encodeRequest(req provider.Request) ([]byte, error) {
	body := chatRequest{
		Model:         req.Model,
		Messages:      p.convertMessages(req.Messages, p.sendReasoning || deepseekThinking(req.Model)),
		Stream:        true,
		StreamOptions: &streamOptions{IncludeUsage: true},
	}
	for _, t := range req.Tools {
		schema := t.Schema
		if len(bytes.TrimSpace(schema)) == 0 || !json.Valid(schema) {
			schema = emptySchema
		}
		body.Tools = append(body.Tools, chatTool{
			Type:     "function",
			Function: chatToolDef{Name: t.Name, Description: t.Description, Parameters: schema},
		})
	}
	if req.MaxTokens > 0 {
		if p.maxTokensParam == "max_completion_tokens" {
			body.MaxCompletionTokens = req.MaxTokens
		} else {
			body.MaxTokens = req.MaxTokens
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // code in prompts stays readable in logs and proxies
	if err := enc.Encode(body); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// convertMessages maps the transcript view to wire messages:
//   - system and user: their text;
//   - assistant: text as content, tool calls as tool_calls (arguments verbatim when
//     they are valid JSON, "{}" otherwise, since servers reject invalid JSON there),
//     reasoning as reasoning_content when sendReasoning is set (Config.SendReasoning
//     or a DeepSeek thinking model, by name), for the assistant messages after the
//     last user message only (DeepSeek's rule), "" when none was captured;
//   - tool: one {"role":"tool"} message per tool-result part.
func (p *Provider) convertMessages(msgs []message.Message, sendReasoning bool) []chatMessage {
	out := make([]chatMessage, 0, len(msgs))
	lastUser := -1
	for i, m := range msgs {
		if m.Role == message.RoleUser {
			lastUser = i
		}
	}
	for i, m := range msgs {
		switch m.Role {
		case message.RoleTool:
			for _, part := range m.Parts {
				if part.Type == message.PartToolResult {
					out = append(out, chatMessage{Role: string(message.RoleTool), ToolCallID: part.ToolCallID, Content: ptr(part.Text)})
				}
			}
		case message.RoleAssistant:
			out = append(out, p.convertAssistant(m, sendReasoning && i > lastUser))
		case message.RoleSystem:
			// The prompt's cache marker line means nothing to Chat Completions servers.
			text := strings.Replace(m.Text(), "\n"+wire.DynamicMarker+"\n", "\n", 1)
			out = append(out, chatMessage{Role: string(m.Role), Content: ptr(text)})
		default:
			out = append(out, chatMessage{Role: string(m.Role), Content: ptr(m.Text())})
		}
	}
	return out
}

// convertAssistant maps one assistant message. withReasoning reports that its
// reasoning is sent back (it comes after the last user message and the model wants
// it): DeepSeek's thinking mode wants the reasoning of the tool loop in progress sent
// back, as "" when none was captured, and rejects or wastes it for earlier turns.
func (p *Provider) convertAssistant(m message.Message, withReasoning bool) chatMessage {
	cm := chatMessage{Role: string(message.RoleAssistant)}
	for _, call := range m.ToolCalls() {
		args := call.Input
		if !json.Valid([]byte(args)) {
			args = "{}"
		}
		cm.ToolCalls = append(cm.ToolCalls, chatToolCall{
			ID: call.ToolCallID, Type: "function",
			Function: chatFunction{Name: call.ToolName, Arguments: args},
		})
	}
	if text := m.Text(); text != "" || len(cm.ToolCalls) == 0 {
		cm.Content = ptr(text)
	}
	if withReasoning {
		cm.ReasoningContent = ptr(m.Reasoning())
	}
	return cm
}

// ptr returns a pointer to a copy of s.
func ptr(s string) *string { return &s }
