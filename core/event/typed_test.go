package event_test

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"regexp"
	"testing"

	"pincer/core/event"
)

// TestPayloadOfEveryType: every type declared in event.go has its payload
// struct, returned by value, and a round trip through the flat JSON gives the
// payload back.
func TestPayloadOfEveryType(t *testing.T) {
	src, err := os.ReadFile("event.go")
	if err != nil {
		t.Fatal(err)
	}
	declared := regexp.MustCompile(`(?m)^\t\w+\s+Type = "([^"]+)"`).FindAllSubmatch(src, -1)
	if len(declared) < 14 {
		t.Fatalf("found %d types in event.go", len(declared))
	}
	for _, m := range declared {
		typ := event.Type(m[1])
		empty, err := event.Event{Type: typ}.Payload()
		if err != nil {
			t.Errorf("%s: %v", typ, err)
			continue
		}
		rv := reflect.ValueOf(empty)
		if rv.Kind() != reflect.Struct || !rv.IsZero() {
			t.Errorf("%s: payload of no data = %#v, want the zero struct by value", typ, empty)
			continue
		}
		// Fill every string field, encode, decode: the same value comes back.
		full := reflect.New(rv.Type()).Elem()
		for i := range full.NumField() {
			if f := full.Field(i); f.Kind() == reflect.String {
				f.SetString("v" + full.Type().Field(i).Name)
			}
		}
		ev, err := event.New(typ, "s", "t", full.Interface())
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(ev)
		var back event.Event
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		got, err := back.Payload()
		if err != nil || !reflect.DeepEqual(got, full.Interface()) {
			t.Errorf("%s: Payload = %#v, %v; want %#v", typ, got, err, full.Interface())
		}
	}
}

func TestPayloadErrors(t *testing.T) {
	bad := event.Event{Type: event.ToolCompleted, Sequence: 7, SessionID: "s", Data: json.RawMessage(`{"isError":"yes"}`)}
	p, err := bad.Payload()
	if p != nil || !errors.Is(err, event.ErrMalformed) || errors.Is(err, event.ErrUnknownType) {
		t.Fatalf("malformed payload: %v, %v", p, err)
	}
	if want := "event 7 (tool.completed) of session s: malformed event payload"; err.Error()[:len(want)] != want {
		t.Fatalf("message %q", err)
	}
	p, err = event.Event{Type: "tool.exploded", Sequence: 3, SessionID: "s"}.Payload()
	if p != nil || !errors.Is(err, event.ErrUnknownType) || errors.Is(err, event.ErrMalformed) {
		t.Fatalf("unknown type: %v, %v", p, err)
	}
	// Unknown fields are ignored, as by Decode.
	p, err = event.Event{Type: event.TurnStarted, Data: json.RawMessage(`{"input":"x","extra":1}`)}.Payload()
	if err != nil || p != (event.TurnStartedData{Input: "x"}) {
		t.Fatalf("extra field: %#v, %v", p, err)
	}
}
