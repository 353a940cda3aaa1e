package event

import (
	"errors"
	"slices"
)

// Closing a turn nobody will finish. When the process running a turn ends in
// the middle of it (killed, crashed), the session's log is left with a turn
// that never ended: requests nobody will answer, tool calls that never
// completed. CloseTurn is the one rule for what closes it, a pure function of
// the log; the store daemon applies it when a client's connection ends while
// it holds the session's lease (persist/remote).

// OpenTurn is the state of a session's last turn, folded from its events.
type OpenTurn struct {
	// TurnID is the last turn.started's turn, "" when no turn started.
	TurnID string
	// Ended is set when that turn ended (turn.completed, turn.failed or
	// turn.cancelled).
	Ended bool
	// Pending are its permission requests with no permission.resolved, in
	// request order.
	Pending []PermissionRequestedData
	// Started are its tool calls with a tool.started and no tool.completed,
	// in start order.
	Started []ToolStartedData
}

// Open reports whether the turn was started and never ended.
func (t OpenTurn) Open() bool { return t.TurnID != "" && !t.Ended }

// LastTurn folds a session's events, in sequence order, into the state of its
// last turn. Events of other turns are passed over. An event of the turn
// whose payload is malformed is left out of the fold and reported: the error
// joins one error per such event (each errors.Is ErrMalformed), and the state
// is returned all the same.
func LastTurn(evs []Event) (OpenTurn, error) {
	var t OpenTurn
	var errs []error
	for _, ev := range evs {
		if ev.Type == TurnStarted {
			t, errs = OpenTurn{TurnID: ev.TurnID}, nil
			continue
		}
		if t.TurnID == "" || ev.TurnID != t.TurnID {
			continue
		}
		switch ev.Type {
		case TurnCompleted, TurnFailed, TurnCancelled:
			t.Ended = true
			continue
		case PermissionRequested, PermissionResolved, ToolStarted, ToolCompleted:
		default:
			continue
		}
		p, err := ev.Payload()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		switch d := p.(type) {
		case PermissionRequestedData:
			t.Pending = append(t.Pending, d)
		case PermissionResolvedData:
			t.Pending = slices.DeleteFunc(t.Pending, func(r PermissionRequestedData) bool { return r.RequestID == d.RequestID })
		case ToolStartedData:
			t.Started = append(t.Started, d)
		case ToolCompletedData:
			t.Started = slices.DeleteFunc(t.Started, func(c ToolStartedData) bool { return c.ToolCallID == d.ToolCallID })
		}
	}
	return t, errors.Join(errs...)
}

// Closer says who closes a turn nobody will finish.
type Closer struct {
	// By is who denies the pending requests: permission.resolved's by.
	By string
	// Who names the process that ended, for the messages: "the pincer process
	// running this turn (pid 42)".
	Who string
}

// CloseTurn returns the events that close the open last turn of a session's
// log (evs, in sequence order), unsequenced and without timestamps (as New
// makes them), in the order to append them:
//
//   - a permission.resolved deny (scope once, by c.By) for every pending
//     request, so no later view inherits an approval nobody can give;
//   - an error tool.completed for every tool call that started and never
//     completed, so each call has exactly one (the transcript is untouched:
//     the agent's RepairView gives the model its InterruptedResult);
//   - turn.failed, reason internal.
//
// There are none when the last turn ended or no turn started. The error is
// LastTurn's (malformed events left out of the fold): the events returned
// close the turn as far as the rest of the log tells.
func CloseTurn(evs []Event, c Closer) ([]Event, error) {
	t, foldErr := LastTurn(evs)
	if !t.Open() {
		return nil, foldErr
	}
	sessionID := evs[0].SessionID
	var out []Event
	add := func(typ Type, p any) error {
		ev, err := New(typ, sessionID, t.TurnID, p)
		if err == nil {
			out = append(out, ev)
		}
		return err
	}
	for _, p := range t.Pending {
		if err := add(PermissionResolved, PermissionResolvedData{RequestID: p.RequestID, ToolCallID: p.ToolCallID,
			Decision: "deny", Scope: "once", By: c.By,
			Reason: c.Who + " ended before the request was answered"}); err != nil {
			return nil, err
		}
	}
	for _, s := range t.Started {
		if err := add(ToolCompleted, ToolCompletedData{ToolCallID: s.ToolCallID, Name: s.Name, IsError: true,
			Output: c.Who + " ended while the tool ran; its result was not recorded"}); err != nil {
			return nil, err
		}
	}
	if err := add(TurnFailed, TurnFailedData{Reason: ReasonInternal,
		Error: c.Who + " ended before the turn finished; continue the session to go on"}); err != nil {
		return nil, err
	}
	return out, foldErr
}
