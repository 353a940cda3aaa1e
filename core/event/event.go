// Package event defines pincer's event protocol (DESIGN.md, "Events") and the
// session log that carries it.
//
// Every event has a type, a per-session sequence number (from 1, no gaps), the
// session and turn it belongs to, a UTC timestamp, and a payload whose fields depend
// on the type. On the wire (stream-json, the store) an event is one flat JSON object:
// the common fields and the payload fields side by side. The log is the only feed of
// every view: front ends read it from a cursor and miss nothing.
package event

import (
	"encoding/json"
	"fmt"
	"time"
)

// Type names an event. Types that have shipped are never renamed.
type Type string

// The event types of DESIGN.md.
const (
	SessionCreated   Type = "session.created"
	TurnStarted      Type = "turn.started"
	MessageDelta     Type = "message.delta"
	MessageCompleted Type = "message.completed"
	// ToolReceiving: the model is streaming a tool call whose name is known
	// and whose arguments are still arriving; its tool.started (or, for a
	// call that never runs, its tool.completed) follows.
	ToolReceiving       Type = "tool.receiving"
	ToolStarted         Type = "tool.started"
	ToolCompleted       Type = "tool.completed"
	PermissionRequested Type = "permission.requested"
	PermissionResolved  Type = "permission.resolved"
	UsageReported       Type = "usage"
	CompactionCompleted Type = "compaction.completed"
	TurnCompleted       Type = "turn.completed"
	TurnFailed          Type = "turn.failed"
	TurnCancelled       Type = "turn.cancelled"
	// Notice is a message for the user that is not part of the transcript: a hook's
	// systemMessage or error, a degraded sandbox, a config file that did not load.
	Notice Type = "notice"
	// ModeChanged: the permission mode in force changed (Shift+Tab, /mode), from
	// the session's next tool-call decision on.
	ModeChanged Type = "mode.changed"
	// ModelChanged: the session's model changed (/model switch), from its next
	// model call on.
	ModelChanged Type = "model.changed"
	// PermissionAnswered: a person answered a pending permission request from
	// a workbench attached to a session another process runs (the process
	// running the turn acts on the first answer and records the outcome as
	// permission.resolved, as for an answer given in its own workbench).
	PermissionAnswered Type = "permission.answered"
	// SubagentStarted: a tool call of the session (Agent, or a team member's
	// start) started a subagent in a child session; its steps go to the child
	// session's own log.
	SubagentStarted Type = "subagent.started"
	// SubagentCompleted: a subagent's run ended; for a background one this
	// arrives whenever it ends (no turnId when the parent is between turns).
	SubagentCompleted Type = "subagent.completed"
	// ShellStarted: a Bash call with run_in_background started a background
	// shell of the session; ShellExited: it ended (exited, killed by KillShell,
	// or ended with the session's process).
	ShellStarted Type = "shell.started"
	ShellExited  Type = "shell.exited"
	// TeamCreated / TeamDeleted: an agent team was started or ended by the
	// session leading it. TeamMessage: a SendMessage between a team's lead and
	// members, recorded in the sender's and the recipient's logs.
	TeamCreated Type = "team.created"
	TeamDeleted Type = "team.deleted"
	TeamMessage Type = "team.message"
	// CheckpointRecorded: a tool call changed files and its checkpoint was
	// stored (core/checkpoint): which files, their sizes before and after.
	// SessionRewound: the session's code or conversation was rewound to
	// before a turn (`pincer rewind`); a conversation rewind names the branch
	// session it started.
	CheckpointRecorded Type = "checkpoint.recorded"
	SessionRewound     Type = "session.rewound"
	// CandidateProposed: a memory or skill candidate (core/memory) was
	// stored pending, waiting for a person's review in the approval queue.
	// CandidateDecided: a person accepted (perhaps edited) or rejected it; an
	// accepted one says whether its file was written.
	CandidateProposed Type = "candidate.proposed"
	CandidateDecided  Type = "candidate.decided"
)

// Event is one entry of a session log. Data holds the payload as a JSON object; use
// Payload to read it as the payload struct of its Type.
type Event struct {
	Type      Type            `json:"type"`
	Sequence  uint64          `json:"sequence"`
	SessionID string          `json:"sessionId"`
	TurnID    string          `json:"turnId"`
	Timestamp time.Time       `json:"timestamp"`
	Data      json.RawMessage `json:"-"`
}

// Decode unmarshals the payload into v (a pointer to the payload struct).
// Payload, which picks the struct by Type and reports a malformed payload,
// is the reader's way; Decode stays for a caller that knows the struct.
func (e Event) Decode(v any) error {
	if len(e.Data) == 0 {
		return nil
	}
	return json.Unmarshal(e.Data, v)
}

// header is the JSON shape of the common fields.
type header struct {
	Type      Type   `json:"type"`
	Sequence  uint64 `json:"sequence"`
	SessionID string `json:"sessionId"`
	TurnID    string `json:"turnId"`
	Timestamp string `json:"timestamp"`
}

// MarshalJSON writes the flat form: common fields first, then the payload fields.
func (e Event) MarshalJSON() ([]byte, error) {
	h, err := json.Marshal(header{e.Type, e.Sequence, e.SessionID, e.TurnID,
		e.Timestamp.UTC().Format(time.RFC3339Nano)})
	if err != nil {
		return nil, err
	}
	data := e.Data
	if len(data) < 2 || string(data) == "{}" || string(data) == "null" {
		return h, nil
	}
	if data[0] != '{' {
		return nil, fmt.Errorf("event %s: payload is not a JSON object", e.Type)
	}
	out := make([]byte, 0, len(h)+len(data))
	out = append(out, h[:len(h)-1]...)
	out = append(out, ',')
	out = append(out, data[1:]...)
	return out, nil
}

// UnmarshalJSON reads the flat form back in one pass (flat.go); Data keeps
// the payload fields only, in their order.
func (e *Event) UnmarshalJSON(b []byte) error {
	ev, err := parseFlat(b)
	if err != nil {
		return err
	}
	*e = ev
	return nil
}

// headerKeys are the common fields, kept out of Data so a round trip does not repeat them.
var headerKeys = []string{"type", "sequence", "sessionId", "turnId", "timestamp"}

// New builds an unsequenced event of type t with payload p (a payload struct or nil).
// The log assigns Sequence and Timestamp on append.
func New(t Type, sessionID, turnID string, p any) (Event, error) {
	ev := Event{Type: t, SessionID: sessionID, TurnID: turnID}
	if p != nil {
		b, err := json.Marshal(p)
		if err != nil {
			return Event{}, fmt.Errorf("event %s: %w", t, err)
		}
		ev.Data = b
	}
	return ev, nil
}
