package tui

import (
	"encoding/json"
	"strings"
	"testing"

	"pincer/core/event"
	"pincer/ui/tui/transcript"
)

// TestReduceMalformedAndUnknownPayloads: an event whose payload does not decode
// shows as an error block naming it (its fields are not guessed at, nothing else
// changes), and an event type this build does not know is ignored.
func TestReduceMalformedAndUnknownPayloads(t *testing.T) {
	m := applyAll(nil)
	before := m.Status
	m.Apply(event.Event{Type: event.ModelChanged, Sequence: 1, SessionID: "s", Data: json.RawMessage(`{"model":7}`)})
	b, ok := m.Block("event:#1")
	if !ok || b.Kind != transcript.KindError || !strings.Contains(b.Text, "model.changed") {
		t.Fatalf("malformed payload: block %+v (found %v)", b, ok)
	}
	if m.Status.Model != before.Model {
		t.Errorf("a malformed model.changed changed the model to %q", m.Status.Model)
	}
	m.Apply(event.Event{Type: "future.thing", Sequence: 2, SessionID: "s", Data: json.RawMessage(`{}`)})
	if _, ok := m.Block("event:#2"); ok || m.LastSequence != 2 {
		t.Errorf("an unknown event type left a block (or was not counted): last %d", m.LastSequence)
	}
}
