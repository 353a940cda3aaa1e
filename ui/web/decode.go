package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
)

// maxBody bounds a request body (a turn's input is the largest: 1 MiB).
const maxBody = 1 << 20

// decodeBody reads r's JSON body into v (a pointer to a struct): one JSON
// object whose member names are v's json field names exactly (encoding/json
// alone would match "Decision" to "decision"), no unknown or wrong-case
// member, no trailing data. A bad body is a bad_request whose message names
// the field, or says the body must be a JSON object.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) error {
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return errorf(http.StatusBadRequest, CodeBadRequest, "the body is over %d bytes", maxBody)
		}
		return errorf(http.StatusBadRequest, CodeBadRequest, "reading the body: %v", err)
	}
	return decodeStrict(raw, v)
}

// decodeStrict is decodeBody's check and decoding of the body's bytes.
func decodeStrict(raw []byte, v any) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return errorf(http.StatusBadRequest, CodeBadRequest, "the body is empty: want a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	var members map[string]json.RawMessage
	if err := dec.Decode(&members); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field == "" {
			return errorf(http.StatusBadRequest, CodeBadRequest, "body must be a JSON object, not a JSON %s", te.Value)
		}
		return errorf(http.StatusBadRequest, CodeBadRequest, "the body is not JSON: %v", err)
	}
	if members == nil {
		return errorf(http.StatusBadRequest, CodeBadRequest, "body must be a JSON object, not null")
	}
	if dec.More() {
		return errorf(http.StatusBadRequest, CodeBadRequest, "the body has more than one JSON value")
	}
	if _, err := dec.Token(); err != io.EOF {
		return errorf(http.StatusBadRequest, CodeBadRequest, "the body has data after its JSON object")
	}
	known := jsonNames(v)
	for name := range members {
		if !known[name] {
			return errorf(http.StatusBadRequest, CodeBadRequest, "unknown field %q%s", name, caseHint(name, known))
		}
	}
	if err := json.Unmarshal(raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return errorf(http.StatusBadRequest, CodeBadRequest, "field %s: want a %s, not a JSON %s", te.Field, te.Type, te.Value)
		}
		return errorf(http.StatusBadRequest, CodeBadRequest, "the body is not JSON: %v", err)
	}
	return nil
}

// jsonNames is the member names v's struct type takes: each exported field's
// json tag name (its Go name when untagged), "-" fields left out.
func jsonNames(v any) map[string]bool {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	out := map[string]bool{}
	if t.Kind() != reflect.Struct {
		return out
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		out[name] = true
	}
	return out
}

// caseHint is `: did you mean "decision"?` for a member that matches a known
// name but for its case, "" otherwise.
func caseHint(name string, known map[string]bool) string {
	for k := range known {
		if strings.EqualFold(k, name) {
			return ` (names are case-sensitive: did you mean "` + k + `"?)`
		}
	}
	return ""
}
