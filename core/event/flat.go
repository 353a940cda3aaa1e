package event

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// Reading the flat form in one pass (issue 19: resuming a long session
// decoded each event twice before its payload, once for the common fields
// and once more, token by token, to cut them out of the payload). parseFlat
// walks the object's members once: the common fields are decoded from their
// own bytes, and every other member's bytes are copied, in order, into Data.
// The payload itself is decoded once, by Payload.

// errFlat is the error of bytes that are not a JSON object of members.
var errFlat = errors.New("event: not a JSON object")

// parseFlat reads one event's flat JSON object b: the same Event the
// two-pass reading gave (header fields matched case-insensitively, as
// encoding/json does; Data the other members in their order, each key in its
// canonical encoding, nil when there are none). b must be valid JSON (the
// callers have checked it: json.Unmarshal before UnmarshalJSON, DecodeList
// once for a whole list); what is not an object is an error.
func parseFlat(b []byte) (Event, error) {
	var e Event
	var ts []byte
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return Event{}, errFlat
	}
	i++
	var data []byte
	for {
		i = skipSpace(b, i)
		if i >= len(b) {
			return Event{}, errFlat
		}
		if b[i] == '}' {
			break
		}
		if b[i] == ',' {
			i = skipSpace(b, i+1)
		}
		kEnd, err := stringEnd(b, i)
		if err != nil {
			return Event{}, err
		}
		rawKey := b[i:kEnd]
		i = skipSpace(b, kEnd)
		if i >= len(b) || b[i] != ':' {
			return Event{}, errFlat
		}
		vStart := skipSpace(b, i+1)
		vEnd, err := valueEnd(b, vStart)
		if err != nil {
			return Event{}, err
		}
		val := b[vStart:vEnd]
		i = vEnd
		key, canonical, err := memberKey(rawKey)
		if err != nil {
			return Event{}, err
		}
		if isHeaderKey(key) {
			if err := e.setHeader(key, val, &ts); err != nil {
				return Event{}, err
			}
			if isExactHeaderKey(key) {
				continue // kept out of Data, as the two-pass reading did
			}
		}
		if data == nil {
			data = make([]byte, 0, len(b)-i+len(val)+len(canonical)+2)
			data = append(data, '{')
		} else {
			data = append(data, ',')
		}
		data = append(append(append(data, canonical...), ':'), val...)
	}
	if ts != nil {
		t, err := time.Parse(time.RFC3339Nano, string(ts))
		if err != nil && len(ts) > 0 {
			return Event{}, fmt.Errorf("event timestamp: %w", err)
		}
		e.Timestamp = t
	}
	if data != nil {
		e.Data = append(data, '}')
	}
	return e, nil
}

// setHeader decodes one common field's value (key matched case-insensitively:
// the last match wins, as encoding/json does; null leaves it as it was).
func (e *Event) setHeader(key string, val []byte, ts *[]byte) error {
	if string(val) == "null" {
		return nil
	}
	switch {
	case equalFold(key, "sequence"):
		n, err := strconv.ParseUint(string(val), 10, 64)
		if err != nil {
			if err := json.Unmarshal(val, &n); err != nil {
				return err
			}
		}
		e.Sequence = n
		return nil
	}
	s, err := stringValue(val)
	if err != nil {
		return fmt.Errorf("event field %s: %w", key, err)
	}
	switch {
	case equalFold(key, "type"):
		e.Type = Type(s)
	case equalFold(key, "sessionId"):
		e.SessionID = s
	case equalFold(key, "turnId"):
		e.TurnID = s
	case equalFold(key, "timestamp"):
		*ts = []byte(s)
	}
	return nil
}

// isHeaderKey reports whether key names a common field as encoding/json
// matches names (ignoring case); isExactHeaderKey whether it is one exactly.
func isHeaderKey(key string) bool {
	for _, h := range headerKeys {
		if equalFold(key, h) {
			return true
		}
	}
	return false
}

func isExactHeaderKey(key string) bool {
	for _, h := range headerKeys {
		if key == h {
			return true
		}
	}
	return false
}

func equalFold(a, b string) bool { return len(a) == len(b) && bytes.EqualFold([]byte(a), []byte(b)) }

// memberKey decodes a member's quoted key and returns it with its canonical
// encoding (json.Marshal's): the raw bytes when nothing in them changes.
func memberKey(raw []byte) (string, []byte, error) {
	plain := true
	for _, c := range raw[1 : len(raw)-1] {
		if c == '\\' || c < 0x20 || c >= 0x80 || c == '<' || c == '>' || c == '&' {
			plain = false
			break
		}
	}
	if plain {
		return string(raw[1 : len(raw)-1]), raw, nil
	}
	var k string
	if err := json.Unmarshal(raw, &k); err != nil {
		return "", nil, err
	}
	canonical, _ := json.Marshal(k)
	return k, canonical, nil
}

// stringValue decodes a JSON string value.
func stringValue(val []byte) (string, error) {
	if len(val) < 2 || val[0] != '"' {
		return "", fmt.Errorf("want a string, got %.20s", val)
	}
	if bytes.IndexByte(val, '\\') < 0 {
		return string(val[1 : len(val)-1]), nil
	}
	var s string
	err := json.Unmarshal(val, &s)
	return s, err
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index after the JSON string starting at b[i].
func stringEnd(b []byte, i int) (int, error) {
	if i >= len(b) || b[i] != '"' {
		return 0, errFlat
	}
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, nil
		}
	}
	return 0, errFlat
}

// valueEnd returns the index after the JSON value starting at b[i].
func valueEnd(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, errFlat
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, err := stringEnd(b, j)
				if err != nil {
					return 0, err
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, errFlat
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	if j == i {
		return 0, errFlat
	}
	return j, nil
}

// DecodeList reads a JSON array of events in their flat form (a store
// listing on the wire) with one validity check for the whole array and one
// pass over each event (parseFlat); null is an empty list. An element that
// does not read as an event (not an object, a common field of the wrong
// type) is skipped and counted in skipped, as a store's listing skips a
// corrupt record; bytes that are not a JSON array are an error.
func DecodeList(b []byte) (evs []Event, skipped int, err error) {
	if !json.Valid(b) {
		return nil, 0, errors.New("event list: invalid JSON")
	}
	i := skipSpace(b, 0)
	if bytes.HasPrefix(b[i:], []byte("null")) {
		return nil, 0, nil
	}
	if b[i] != '[' {
		return nil, 0, errors.New("event list: not a JSON array")
	}
	for i++; ; {
		i = skipSpace(b, i)
		if b[i] == ',' {
			i = skipSpace(b, i+1)
		}
		if b[i] == ']' {
			return evs, skipped, nil
		}
		end, err := valueEnd(b, i)
		if err != nil {
			return nil, 0, fmt.Errorf("event list: element %d: %w", len(evs)+skipped, err)
		}
		if ev, err := parseFlat(b[i:end]); err == nil {
			evs = append(evs, ev)
		} else {
			skipped++
		}
		i = end
	}
}
