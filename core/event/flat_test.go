package event

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// twoPass is how UnmarshalJSON read the flat form before parseFlat (issue
// 19): the common fields through encoding/json, then the object once more,
// token by token, for the payload. parseFlat must give the same Event.
func twoPass(b []byte) (Event, error) {
	var h header
	if err := json.Unmarshal(b, &h); err != nil {
		return Event{}, err
	}
	ts, err := time.Parse(time.RFC3339Nano, h.Timestamp)
	if err != nil && h.Timestamp != "" {
		return Event{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return Event{}, err
	}
	var out []byte
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return Event{}, err
		}
		key, _ := tok.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return Event{}, err
		}
		if slices.Contains(headerKeys, key) {
			continue
		}
		k, _ := json.Marshal(key)
		if out == nil {
			out = append(out, '{')
		} else {
			out = append(out, ',')
		}
		out = append(append(append(out, k...), ':'), val...)
	}
	var data json.RawMessage
	if out != nil {
		data = append(out, '}')
	}
	return Event{Type: h.Type, Sequence: h.Sequence, SessionID: h.SessionID, TurnID: h.TurnID, Timestamp: ts, Data: data}, nil
}

// TestParseFlatAsTwoPass: the one-pass reading gives the Event (and so the
// stream-json bytes MarshalJSON writes from it) the two-pass reading gave,
// for what pincer writes and for odd but valid objects: whitespace, escapes
// in keys and values, nested payloads, header fields anywhere, in another
// case, twice, null, missing.
func TestParseFlatAsTwoPass(t *testing.T) {
	written, err := New(ToolCompleted, "s1", "t1", ToolCompletedData{ToolCallID: "c1", Name: "Bash",
		Output: "line \"one\"\n\ttab <b> & é ✓ \u2028", DurationMs: 12, Diff: "--- a\n+++ b\n"})
	if err != nil {
		t.Fatal(err)
	}
	written.Sequence, written.Timestamp = 42, time.Date(2026, 12, 2, 1, 2, 3, 456789000, time.UTC)
	flat, err := json.Marshal(written)
	if err != nil {
		t.Fatal(err)
	}
	cases := []string{
		string(flat),
		`{"type":"turn.started","sequence":1,"sessionId":"s","turnId":"t","timestamp":"2026-01-02T03:04:05Z"}`,
		`{"type":"turn.started","sequence":1,"sessionId":"s","turnId":"t","timestamp":"2026-01-02T03:04:05Z","input":"hi"}`,
		` { "input" : "x" , "type" : "turn.started" ,"sequence": 7 , "nested": {"a": [1, 2, {"b": "}"}], "c": "]\\""} } `,
		`{"sequence":3,"type":"notice","level":"info","source":"hook","message":"a \\u00e9 \\n b"}`,
		`{"T\\u0079pe":"x","Type":"y","type":"notice","SEQUENCE":9,"sessionid":"S","k\\"ey":1,"<k>":true,"é":null}`,
		`{"type":"a","type":"b","sequence":1,"sequence":2}`,
		`{"type":null,"sequence":null,"timestamp":null,"turnId":"t"}`,
		`{}`,
		`{"x":-1.5e3,"y":false,"z":[],"w":{}}`,
		`{"type":"usage","inputTokens":12,"costUsd":null,"contextWindow":200000}`,
	}
	for _, c := range cases {
		want, werr := twoPass([]byte(c))
		var got Event
		gerr := json.Unmarshal([]byte(c), &got)
		if (werr != nil) != (gerr != nil) {
			t.Errorf("%s: error %v, two-pass %v", c, gerr, werr)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v (data %s)\nwant %+v (data %s)", c, got, got.Data, want, want.Data)
			continue
		}
		if werr != nil {
			continue
		}
		gb, gerr := json.Marshal(got)
		wb, werr := json.Marshal(want)
		if (gerr != nil) != (werr != nil) || !bytes.Equal(gb, wb) {
			t.Errorf("%s: writes %s (%v), two-pass %s (%v)", c, gb, gerr, wb, werr)
		}
	}
	if !bytes.Equal(mustMarshal(t, written), flat) {
		t.Fatal("a written event does not round trip byte for byte")
	}
}

func mustMarshal(t *testing.T, ev Event) []byte {
	var back Event
	if err := json.Unmarshal(mustJSON(t, ev), &back); err != nil {
		t.Fatal(err)
	}
	return mustJSON(t, back)
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestParseFlatErrors: what is not an event object is an error, as before.
func TestParseFlatErrors(t *testing.T) {
	for _, c := range []string{`[]`, `"x"`, `3`, `{"sequence":"5"}`, `{"sequence":-1}`, `{"type":3}`,
		`{"timestamp":"yesterday"}`, `{"sessionId":{"a":1}}`} {
		var ev Event
		if err := json.Unmarshal([]byte(c), &ev); err == nil {
			t.Errorf("%s: no error (%+v)", c, ev)
		}
		if _, err := twoPass([]byte(c)); err == nil {
			t.Errorf("%s: the two-pass reading took it", c)
		}
	}
}

// TestDecodeList: a listing's array reads as json.Unmarshal into []Event
// reads it; null is none; a broken array or element is an error.
func TestDecodeList(t *testing.T) {
	var evs []Event
	for i := 1; i <= 5; i++ {
		ev, _ := New(MessageDelta, "s", "t", MessageDeltaData{MessageID: "m", Delta: strings.Repeat("é]}", i), Kind: "text"})
		ev.Sequence, ev.Timestamp = uint64(i), time.Unix(int64(i), 0).UTC()
		evs = append(evs, ev)
	}
	b := mustJSON(t, evs)
	var want []Event
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	for _, in := range [][]byte{b, append(append([]byte(" \n"), bytes.ReplaceAll(b, []byte("},{"), []byte("} ,\n {"))...), ' ')} {
		got, skipped, err := DecodeList(in)
		if err != nil || skipped != 0 || !reflect.DeepEqual(got, want) {
			t.Fatalf("DecodeList = %v, %d, %v; want %v", got, skipped, err, want)
		}
	}
	if got, _, err := DecodeList([]byte("null")); err != nil || got != nil {
		t.Fatalf("null: %v, %v", got, err)
	}
	if got, _, err := DecodeList([]byte("[]")); err != nil || len(got) != 0 {
		t.Fatalf("[]: %v, %v", got, err)
	}
	// Elements that are not events are skipped and counted, the others kept.
	mixed := []byte(`[{"type":"a","sequence":1},3,{"sequence":"x"},"s",{"type":"b","sequence":2}]`)
	if got, skipped, err := DecodeList(mixed); err != nil || skipped != 3 || len(got) != 2 || got[1].Type != "b" {
		t.Fatalf("mixed: %v, %d, %v", got, skipped, err)
	}
	for _, bad := range []string{`[{"type":"a"}`, `{"type":"a"}`, `"x"`, ``, `[1,]`} {
		if _, _, err := DecodeList([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// BenchmarkUnmarshalEvent reads one stored tool.completed event (~330
// bytes): two-pass is the reading before parseFlat.
func BenchmarkUnmarshalEvent(b *testing.B) {
	ev, _ := New(ToolCompleted, "20261202-000000-00000001", "turn-000001", ToolCompletedData{ToolCallID: "call-000001",
		Name: "Bash", Output: strings.Repeat("ok  \tpincer/pkg\t0.010s\n", 8), DurationMs: 1200, Summary: "Bash: go test ./..."})
	ev.Sequence, ev.Timestamp = 1234, time.Now().UTC()
	flat, _ := json.Marshal(ev)
	b.Run("one-pass", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var e Event
			if err := json.Unmarshal(flat, &e); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("two-pass", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := twoPass(flat); err != nil {
				b.Fatal(err)
			}
		}
	})
}
