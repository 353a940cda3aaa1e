// Package message holds the transcript types of pincer: a Message made of ordered
// Parts (text, reasoning, tool call, tool result) and the token Usage of a model call.
//
// The stored transcript is the whole truth (DESIGN.md, invariant 3): messages are
// appended, never rewritten. A provider view is derived from them (see core/agent's
// repair) without changing what is stored. These types carry no behaviour beyond
// small accessors, so persist/ can store them without knowing the agent.
package message

import (
	"strings"
	"time"
)

// Role is who wrote a message, with the Chat Completions names.
type Role string

// The four roles of a transcript.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
	// RoleCompaction marks a compaction record: its text is the summary of the
	// messages before Compaction.BoundarySeq. It is never sent as is; the agent
	// builds the provider view from it (core/agent, view.go).
	RoleCompaction Role = "compaction"
)

// Compaction describes a compaction record: the first message kept verbatim
// (BoundarySeq), what triggered it ("auto", "manual", "context_length"), the user's
// focus for a manual one, and the estimated tokens of the view before and after.
type Compaction struct {
	BoundarySeq  uint64 `json:"boundarySeq"`
	Trigger      string `json:"trigger"`
	Focus        string `json:"focus,omitempty"`
	BeforeTokens int64  `json:"beforeTokens"`
	AfterTokens  int64  `json:"afterTokens"`
}

// PartType names the kind of one Part.
type PartType string

// The part types of a message.
const (
	PartText       PartType = "text"
	PartReasoning  PartType = "reasoning"
	PartToolCall   PartType = "tool_call"
	PartToolResult PartType = "tool_result"
	// PartServerBlock is a content block of a tool the provider's server ran
	// itself within the model call (Anthropic's web_search: its server_tool_use
	// and web_search_tool_result blocks). Raw holds the block's JSON as the
	// provider sent it and goes back unchanged in later requests to the same
	// API, as Anthropic requires; other providers leave it out.
	PartServerBlock PartType = "server_block"
)

// Part is one ordered piece of a message. Which fields are set depends on Type:
//   - text: Text.
//   - reasoning: Text, and Signature when the provider signs reasoning (Anthropic
//     thinking blocks must be sent back unchanged).
//   - tool_call: ToolCallID, ToolName, Input (the raw JSON arguments as the model sent
//     them, possibly invalid) and Truncated when the stream ended on a length limit
//     before the arguments were complete.
//   - tool_result: ToolCallID, ToolName, Text (what the model reads) and IsError.
//   - server_block: Raw (the provider's block JSON), ToolCallID (the server tool
//     call's id, "srvtoolu_…"), ToolName (the block's type: "server_tool_use",
//     "web_search_tool_result"), Input (a server_tool_use's input JSON) and Text (a
//     result's titles and URLs, one "title <url>" a line, for people; IsError when the
//     server reported an error).
type Part struct {
	Type       PartType `json:"type"`
	Text       string   `json:"text,omitempty"`
	Signature  string   `json:"signature,omitempty"`
	ToolCallID string   `json:"toolCallId,omitempty"`
	ToolName   string   `json:"toolName,omitempty"`
	Input      string   `json:"input,omitempty"`
	Truncated  bool     `json:"truncated,omitempty"`
	IsError    bool     `json:"isError,omitempty"`
	Raw        string   `json:"raw,omitempty"`
}

// Message is one entry of a session's transcript. Seq is assigned by the store when
// the message is appended (per session, from 1). Interrupted marks an assistant
// message whose stream was cancelled: it holds what had arrived.
type Message struct {
	ID          string      `json:"id"`
	SessionID   string      `json:"sessionId"`
	Seq         uint64      `json:"seq"`
	TurnID      string      `json:"turnId,omitempty"`
	Role        Role        `json:"role"`
	Parts       []Part      `json:"parts"`
	Model       string      `json:"model,omitempty"`
	Usage       *Usage      `json:"usage,omitempty"`
	Interrupted bool        `json:"interrupted,omitempty"`
	Compaction  *Compaction `json:"compaction,omitempty"`
	CreatedAt   time.Time   `json:"createdAt"`
}

// Text returns the concatenated text parts (not reasoning, not tool results).
func (m Message) Text() string {
	var b strings.Builder
	for _, p := range m.Parts {
		if p.Type == PartText {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// Reasoning returns the concatenated reasoning parts.
func (m Message) Reasoning() string {
	var b strings.Builder
	for _, p := range m.Parts {
		if p.Type == PartReasoning {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// ToolCalls returns the tool-call parts in the order the model sent them.
func (m Message) ToolCalls() []Part {
	var out []Part
	for _, p := range m.Parts {
		if p.Type == PartToolCall {
			out = append(out, p)
		}
	}
	return out
}

// ToolResult returns the message's tool-result part, if it is a tool message.
func (m Message) ToolResult() (Part, bool) {
	for _, p := range m.Parts {
		if p.Type == PartToolResult {
			return p, true
		}
	}
	return Part{}, false
}

// NewText builds a message with a single text part.
func NewText(role Role, text string) Message {
	return Message{Role: role, Parts: []Part{{Type: PartText, Text: text}}}
}

// NewToolResult builds the tool message that answers one tool call.
func NewToolResult(callID, toolName, text string, isError bool) Message {
	return Message{Role: RoleTool, Parts: []Part{{
		Type: PartToolResult, ToolCallID: callID, ToolName: toolName, Text: text, IsError: isError,
	}}}
}
