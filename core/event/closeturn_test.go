package event_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"pincer/core/event"
)

// logOf builds a session log (sequenced from 1) of (type, turn, payload) triples.
func logOf(t *testing.T, entries ...any) []event.Event {
	t.Helper()
	var evs []event.Event
	for i := 0; i < len(entries); i += 3 {
		ev, err := event.New(entries[i].(event.Type), "s", entries[i+1].(string), entries[i+2])
		if err != nil {
			t.Fatal(err)
		}
		ev.Sequence = uint64(len(evs) + 1)
		evs = append(evs, ev)
	}
	return evs
}

func types(evs []event.Event) string {
	var out []string
	for _, ev := range evs {
		out = append(out, string(ev.Type))
	}
	return fmt.Sprint(out)
}

var closer = event.Closer{By: "store-daemon", Who: "the pincer process running this turn (pid 42)"}

func TestCloseTurn(t *testing.T) {
	evs := logOf(t,
		event.TurnStarted, "turn-0", event.TurnStartedData{Input: "before"},
		event.PermissionRequested, "turn-0", event.PermissionRequestedData{RequestID: "r0"},
		event.TurnCompleted, "turn-0", event.TurnCompletedData{StopReason: "stop"},
		event.TurnStarted, "turn-1", event.TurnStartedData{Input: "go"},
		event.ToolStarted, "turn-1", event.ToolStartedData{ToolCallID: "c1", Name: "Bash"},
		event.ToolCompleted, "turn-1", event.ToolCompletedData{ToolCallID: "c1", Name: "Bash"},
		event.ToolStarted, "turn-1", event.ToolStartedData{ToolCallID: "c2", Name: "Bash"},
		event.PermissionRequested, "turn-1", event.PermissionRequestedData{RequestID: "r1", ToolCallID: "c3", Name: "Edit"},
		event.PermissionRequested, "turn-1", event.PermissionRequestedData{RequestID: "r2", ToolCallID: "c4", Name: "Write"},
		event.PermissionResolved, "turn-1", event.PermissionResolvedData{RequestID: "r2", Decision: "allow"},
		event.ToolStarted, "turn-1", event.ToolStartedData{ToolCallID: "c4", Name: "Write"},
		event.MessageDelta, "turn-1", event.MessageDeltaData{Delta: "x"},
		event.Notice, "", event.NoticeData{Message: "not of the turn"},
	)
	got, err := event.CloseTurn(evs, closer)
	if err != nil {
		t.Fatal(err)
	}
	if types(got) != "[permission.resolved tool.completed tool.completed turn.failed]" {
		t.Fatalf("closing events %s", types(got))
	}
	for _, ev := range got {
		if ev.SessionID != "s" || ev.TurnID != "turn-1" || ev.Sequence != 0 || !ev.Timestamp.IsZero() {
			t.Fatalf("event %+v: want session s, turn-1, unsequenced", ev)
		}
	}
	res, _ := got[0].Payload()
	c2, _ := got[1].Payload()
	c4, _ := got[2].Payload()
	failed, _ := got[3].Payload()
	if r := res.(event.PermissionResolvedData); r.RequestID != "r1" || r.ToolCallID != "c3" || r.Decision != "deny" ||
		r.Scope != "once" || r.By != "store-daemon" || !strings.Contains(r.Reason, "(pid 42) ended") {
		t.Errorf("deny = %+v", r)
	}
	if c := c2.(event.ToolCompletedData); c.ToolCallID != "c2" || c.Name != "Bash" || !c.IsError {
		t.Errorf("first tool.completed = %+v", c)
	}
	if c := c4.(event.ToolCompletedData); c.ToolCallID != "c4" || !c.IsError {
		t.Errorf("second tool.completed = %+v", c)
	}
	if f := failed.(event.TurnFailedData); f.Reason != event.ReasonInternal || !strings.Contains(f.Error, "pid 42") {
		t.Errorf("turn.failed = %+v", f)
	}
}

func TestCloseTurnLeavesEndedTurnsAlone(t *testing.T) {
	for name, evs := range map[string][]event.Event{
		"empty log":        nil,
		"no turn":          logOf(t, event.SessionCreated, "", event.SessionCreatedData{Cwd: "/w"}),
		"completed":        logOf(t, event.TurnStarted, "t", nil, event.ToolStarted, "t", event.ToolStartedData{ToolCallID: "c"}, event.TurnCompleted, "t", nil),
		"failed":           logOf(t, event.TurnStarted, "t", nil, event.TurnFailed, "t", event.TurnFailedData{Reason: "provider"}),
		"cancelled":        logOf(t, event.TurnStarted, "t", nil, event.TurnCancelled, "t", event.TurnCancelledData{}),
		"other turn's end": logOf(t, event.TurnStarted, "t1", nil, event.TurnStarted, "t2", nil, event.TurnCompleted, "t2", nil),
	} {
		got, err := event.CloseTurn(evs, closer)
		if err != nil || len(got) != 0 {
			t.Errorf("%s: %s, %v; want nothing", name, types(got), err)
		}
	}
	// A turn with nothing pending closes with turn.failed alone.
	got, err := event.CloseTurn(logOf(t, event.TurnStarted, "t", nil), closer)
	if err != nil || types(got) != "[turn.failed]" {
		t.Errorf("bare open turn: %s, %v", types(got), err)
	}
}

// TestCloseTurnReportsMalformedEvents: an event whose payload does not decode
// is left out of the fold and reported, and the turn is closed all the same.
func TestCloseTurnReportsMalformedEvents(t *testing.T) {
	evs := logOf(t,
		event.TurnStarted, "t", nil,
		event.ToolStarted, "t", event.ToolStartedData{ToolCallID: "c1", Name: "Bash"},
		event.ToolStarted, "t", nil,
	)
	evs[2].Data = json.RawMessage(`{"toolCallId":17}`)
	got, err := event.CloseTurn(evs, closer)
	if !errors.Is(err, event.ErrMalformed) || !strings.Contains(err.Error(), "event 3 (tool.started)") {
		t.Fatalf("err = %v, want the malformed event 3 reported", err)
	}
	if types(got) != "[tool.completed turn.failed]" {
		t.Fatalf("closing events %s", types(got))
	}
	turn, err := event.LastTurn(evs)
	if !turn.Open() || len(turn.Started) != 1 || turn.Started[0].ToolCallID != "c1" || err == nil {
		t.Fatalf("LastTurn = %+v, %v", turn, err)
	}
}
