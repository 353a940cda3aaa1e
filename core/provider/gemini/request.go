package gemini

import (
	"bytes"
	"encoding/json"
	"strings"

	"pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/internal/wire"
)

// generateRequest is the body of POST models/{model}:streamGenerateContent.
type generateRequest struct {
	Contents          []content         `json:"contents"`
	SystemInstruction *content          `json:"systemInstruction,omitempty"`
	Tools             []tool            `json:"tools,omitempty"`
	GenerationConfig  *generationConfig `json:"generationConfig,omitempty"`
}

// content is one turn: role "user" or "model", and its parts.
type content struct {
	Role  string `json:"role,omitempty"`
	Parts []part `json:"parts"`
}

// part is one piece of a turn, in requests and in responses. Text is a pointer so a
// signature-only part can carry "text": "" as Gemini sent it.
type part struct {
	Text             *string           `json:"text,omitempty"`
	Thought          bool              `json:"thought,omitempty"`
	ThoughtSignature string            `json:"thoughtSignature,omitempty"`
	FunctionCall     *functionCall     `json:"functionCall,omitempty"`
	FunctionResponse *functionResponse `json:"functionResponse,omitempty"`
}

// functionCall is a model's tool call. In a response, Args is a JSON object (case
// 23) or the arguments stream as PartialArgs with WillContinue (case 24).
type functionCall struct {
	ID           string          `json:"id,omitempty"`
	Name         string          `json:"name,omitempty"`
	Args         json.RawMessage `json:"args,omitempty"`
	PartialArgs  []partialArg    `json:"partialArgs,omitempty"`
	WillContinue bool            `json:"willContinue,omitempty"`
}

// functionResponse answers a function call; Response must be an object.
type functionResponse struct {
	ID       string         `json:"id,omitempty"`
	Name     string         `json:"name"`
	Response map[string]any `json:"response"`
}

// tool declares functions.
type tool struct {
	FunctionDeclarations []functionDeclaration `json:"functionDeclarations"`
}

// functionDeclaration is one function; Parameters is the sanitised schema, absent
// for a function without parameters.
type functionDeclaration struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// generationConfig carries the output limit and the thinking settings.
type generationConfig struct {
	MaxOutputTokens int             `json:"maxOutputTokens,omitempty"`
	ThinkingConfig  *thinkingConfig `json:"thinkingConfig,omitempty"`
}

// thinkingConfig asks for a thinking budget and for thought summaries.
type thinkingConfig struct {
	ThinkingBudget  *int `json:"thinkingBudget,omitempty"`
	IncludeThoughts bool `json:"includeThoughts,omitempty"`
}

// encodeRequest builds the JSON body for req.
func (p *Provider) encodeRequest(req provider.Request, names toolNames) ([]byte, error) {
	body := generateRequest{Contents: convertMessages(req.Messages, names)}
	if body.Contents == nil {
		body.Contents = []content{}
	}
	var system []string
	for _, m := range req.Messages {
		if m.Role == message.RoleSystem {
			if t := wire.JoinSystem(m.Text()); t != "" {
				system = append(system, t) // Gemini caches implicitly: no marker needed
			}
		}
	}
	if len(system) > 0 {
		text := strings.Join(system, "\n\n")
		body.SystemInstruction = &content{Parts: []part{{Text: &text}}}
	}
	if len(req.Tools) > 0 {
		var decls []functionDeclaration
		for _, t := range req.Tools {
			decls = append(decls, functionDeclaration{Name: names.toWire(t.Name), Description: t.Description, Parameters: SanitizeSchema(t.Schema)})
		}
		body.Tools = []tool{{FunctionDeclarations: decls}}
	}
	gc := generationConfig{MaxOutputTokens: p.maxTokens}
	if req.MaxTokens > 0 {
		gc.MaxOutputTokens = req.MaxTokens
	}
	if p.thinkingBudget != 0 || p.includeThoughts {
		tc := &thinkingConfig{IncludeThoughts: p.includeThoughts}
		if p.thinkingBudget != 0 {
			b := p.thinkingBudget
			tc.ThinkingBudget = &b
		}
		gc.ThinkingConfig = tc
	}
	if gc != (generationConfig{}) {
		body.GenerationConfig = &gc
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(body); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// convertMessages maps the transcript view to Gemini contents:
//   - system messages are skipped (they become systemInstruction);
//   - user text is a "user" text part; empty text parts are left out;
//   - assistant messages are "model" turns, parts in order: signed reasoning goes
//     back as a thought part with its thoughtSignature (a signature-only part as
//     {"text": "", "thoughtSignature"}, the shape Gemini sends), unsigned reasoning is
//     dropped, text is a text part, a tool call a functionCall part with its args as
//     an object ("{}" when not valid JSON) and its thoughtSignature (Gemini 3 rejects
//     a function call whose signature was removed); synthesized ids are not sent;
//   - tool results are functionResponse parts of a "user" turn, the text under
//     "output" (or "error" when IsError), named after their call.
//
// Consecutive turns of the same role are merged, so the responses to parallel calls
// travel together, one per call, as Gemini requires. Tool names travel under their
// wire names (names.go).
func convertMessages(msgs []message.Message, names toolNames) []content {
	var out []content
	callNames := map[string]string{} // call id -> tool name, for results without one
	add := func(role string, parts []part) {
		if len(parts) == 0 {
			return
		}
		if n := len(out); n > 0 && out[n-1].Role == role {
			out[n-1].Parts = append(out[n-1].Parts, parts...)
			return
		}
		out = append(out, content{Role: role, Parts: parts})
	}
	for _, m := range msgs {
		var parts []part
		switch m.Role {
		case message.RoleSystem:
			continue
		case message.RoleAssistant:
			for _, p := range m.Parts {
				if p.Type == message.PartToolCall {
					callNames[p.ToolCallID] = p.ToolName
				}
				if mp, ok := modelPart(p, names); ok {
					parts = append(parts, mp)
				}
			}
			add("model", parts)
		case message.RoleTool:
			for _, p := range m.Parts {
				if p.Type == message.PartToolResult {
					parts = append(parts, responsePart(p, callNames, names))
				}
			}
			add("user", parts)
		default:
			for _, p := range m.Parts {
				if p.Type == message.PartText && p.Text != "" {
					parts = append(parts, part{Text: ptr(p.Text)})
				}
			}
			add("user", parts)
		}
	}
	return out
}

// modelPart maps one assistant part; ok is false for parts Gemini must not see.
func modelPart(p message.Part, names toolNames) (part, bool) {
	switch p.Type {
	case message.PartReasoning:
		if p.Signature == "" {
			return part{}, false
		}
		return part{Text: ptr(p.Text), Thought: p.Text != "", ThoughtSignature: p.Signature}, true
	case message.PartText:
		return part{Text: ptr(p.Text)}, p.Text != ""
	case message.PartToolCall:
		args := json.RawMessage(bytes.TrimSpace([]byte(p.Input)))
		if len(args) == 0 || args[0] != '{' || !json.Valid(args) {
			args = json.RawMessage("{}")
		}
		fc := &functionCall{Name: names.toWire(p.ToolName), Args: args}
		if !synthesized(p.ToolCallID) {
			fc.ID = p.ToolCallID
		}
		return part{FunctionCall: fc, ThoughtSignature: p.Signature}, true
	}
	return part{}, false
}

// responsePart maps one tool result.
func responsePart(p message.Part, callNames map[string]string, names toolNames) part {
	name := p.ToolName
	if name == "" {
		name = callNames[p.ToolCallID]
	}
	name = names.toWire(name)
	key := "output"
	if p.IsError {
		key = "error"
	}
	fr := &functionResponse{Name: name, Response: map[string]any{key: p.Text}}
	if !synthesized(p.ToolCallID) {
		fr.ID = p.ToolCallID
	}
	return part{FunctionResponse: fr}
}

// ptr returns a pointer to a copy of s.
func ptr(s string) *string { return &s }
