package hook

import (
	"encoding/json"
)

// Event names a point in a session where hooks run. The values are Claude Code's
// event names, used as keys in both configuration formats and sent to hooks as
// hook_event_name.
type Event string

// The supported events ("Hook events" in Claude Code's reference).
const (
	// PreToolUse runs after the model produced a tool call and before the
	// permission decision; it may allow, deny, ask about or rewrite the call.
	PreToolUse Event = "PreToolUse"
	// PostToolUse runs after a tool call finished; it may feed text to the model.
	PostToolUse Event = "PostToolUse"
	// UserPromptSubmit runs when a person submits a prompt, before the model sees
	// it; it may block the prompt or add context.
	UserPromptSubmit Event = "UserPromptSubmit"
	// Stop runs when the model has finished answering; it may make it continue.
	Stop Event = "Stop"
	// SessionStart runs when a session starts or resumes; it may add context.
	SessionStart Event = "SessionStart"
	// SessionEnd runs when a session ends; it cannot block.
	SessionEnd Event = "SessionEnd"
	// PreCompact runs before the transcript view is compacted; it may block it.
	PreCompact Event = "PreCompact"
)

// Events lists the supported events in lifecycle order.
var Events = []Event{SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop, PreCompact, SessionEnd}

// Valid reports whether e is one of Events.
func (e Event) Valid() bool {
	for _, k := range Events {
		if k == e {
			return true
		}
	}
	return false
}

// usesMatcher reports whether the event's matcher selects hooks; for the others
// every hook of the event runs whatever its matcher says ("Matcher patterns").
func (e Event) usesMatcher() bool {
	switch e {
	case PreToolUse, PostToolUse, SessionStart, PreCompact:
		return true
	}
	return false
}

// Common is the part of the hook input every event shares ("Common input fields").
type Common struct {
	SessionID string
	// TranscriptPath is sent as transcript_path; pincer keeps transcripts in its
	// store, so it may be empty, or a file the caller exported.
	TranscriptPath string
	// Cwd is the working directory sent as cwd; empty means the project directory.
	Cwd string
	// PermissionMode uses Claude Code's names (default, plan, acceptEdits,
	// bypassPermissions, dontAsk), which are pincer's permission.Mode values.
	PermissionMode string
}

// ToolResponse is what pincer sends as tool_response to PostToolUse hooks. Claude
// Code sends each tool's own result object (for Bash: stdout, stderr, ...);
// pincer's tools all produce one text, so the object is the same for every tool:
// {"output": "...", "isError": false}.
type ToolResponse struct {
	Output  string `json:"output"`
	IsError bool   `json:"isError"`
}

// input builds the JSON a hook reads on standard input: the common fields, then
// the event's own. Field names are Claude Code's ("Hook input").
func input(ev Event, c Common, projectDir string, fields map[string]any) []byte {
	cwd := c.Cwd
	if cwd == "" {
		cwd = projectDir
	}
	m := map[string]any{
		"session_id":      c.SessionID,
		"transcript_path": c.TranscriptPath,
		"cwd":             cwd,
		"permission_mode": c.PermissionMode,
		"hook_event_name": string(ev),
	}
	for k, v := range fields {
		m[k] = v
	}
	b, err := json.Marshal(m)
	if err != nil { // only a tool_input that is not JSON can get here; objectOrEmpty prevents it
		b, _ = json.Marshal(map[string]any{"hook_event_name": string(ev)})
	}
	return b
}

// objectOrEmpty returns raw when it is a JSON object, else {}: tool_input is always
// an object in Claude Code's protocol.
func objectOrEmpty(raw json.RawMessage) json.RawMessage {
	if isObject(raw) {
		return raw
	}
	return json.RawMessage("{}")
}

// isObject reports whether raw is valid JSON whose value is an object.
func isObject(raw []byte) bool {
	if !json.Valid(raw) {
		return false
	}
	for _, c := range raw {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '{':
			return true
		}
		return false
	}
	return false
}
