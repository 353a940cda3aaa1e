package event

import (
	"encoding/json"
	"errors"
	"fmt"
)

// ErrMalformed is matched (errors.Is) by the error of Payload for a payload
// that does not decode into the struct of its type.
var ErrMalformed = errors.New("malformed event payload")

// ErrUnknownType is matched (errors.Is) by the error of Payload for a type
// this version does not know (an event written by a newer pincer, say): a
// reader that only shows events skips it, one that folds them reports it.
var ErrUnknownType = errors.New("unknown event type")

// payloads decodes the payload of each type into its struct (payload.go).
var payloads = map[Type]func(json.RawMessage) (any, error){
	SessionCreated:      decodeAs[SessionCreatedData],
	TurnStarted:         decodeAs[TurnStartedData],
	MessageDelta:        decodeAs[MessageDeltaData],
	MessageCompleted:    decodeAs[MessageCompletedData],
	ToolReceiving:       decodeAs[ToolReceivingData],
	ToolStarted:         decodeAs[ToolStartedData],
	ToolCompleted:       decodeAs[ToolCompletedData],
	PermissionRequested: decodeAs[PermissionRequestedData],
	PermissionResolved:  decodeAs[PermissionResolvedData],
	UsageReported:       decodeAs[UsageData],
	CompactionCompleted: decodeAs[CompactionCompletedData],
	TurnCompleted:       decodeAs[TurnCompletedData],
	TurnFailed:          decodeAs[TurnFailedData],
	TurnCancelled:       decodeAs[TurnCancelledData],
	Notice:              decodeAs[NoticeData],
	ModeChanged:         decodeAs[ModeChangedData],
	ModelChanged:        decodeAs[ModelChangedData],
	PermissionAnswered:  decodeAs[PermissionAnsweredData],
	SubagentStarted:     decodeAs[SubagentStartedData],
	SubagentCompleted:   decodeAs[SubagentCompletedData],
	ShellStarted:        decodeAs[ShellStartedData],
	CheckpointRecorded:  decodeAs[CheckpointRecordedData],
	SessionRewound:      decodeAs[SessionRewoundData],
	ShellExited:         decodeAs[ShellExitedData],
	TeamCreated:         decodeAs[TeamCreatedData],
	TeamDeleted:         decodeAs[TeamDeletedData],
	TeamMessage:         decodeAs[TeamMessageData],
	CandidateProposed:   decodeAs[CandidateProposedData],
	CandidateDecided:    decodeAs[CandidateDecidedData],
}

// decodeAs decodes data into a T and returns the T (a value, not a pointer);
// no data is the zero T.
func decodeAs[T any](data json.RawMessage) (any, error) {
	var v T
	if len(data) == 0 {
		return v, nil
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// Payload returns the event's payload as the struct of its Type, by value:
// a TurnStartedData for turn.started, a ToolCompletedData for tool.completed,
// and so on (payload.go), so a reader type-switches on the value types. An
// event with no payload gives the zero struct. A payload that does not decode
// into the struct (a field of the wrong JSON type, not an object) is an error
// wrapping ErrMalformed that names the type and sequence; a type this version
// does not know is (nil, an error wrapping ErrUnknownType). Unknown fields are
// ignored, as Decode does.
func (e Event) Payload() (any, error) {
	decode, ok := payloads[e.Type]
	if !ok {
		return nil, fmt.Errorf("event %d of session %s: %w %q", e.Sequence, e.SessionID, ErrUnknownType, e.Type)
	}
	p, err := decode(e.Data)
	if err != nil {
		return nil, fmt.Errorf("event %d (%s) of session %s: %w: %v", e.Sequence, e.Type, e.SessionID, ErrMalformed, err)
	}
	return p, nil
}
