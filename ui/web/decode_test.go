package web

import (
	"errors"
	"strings"
	"testing"
)

// TestDecodeStrict: member names are matched exactly (a wrong-case one is
// refused, naming it), the body must be one JSON object, and the values
// decode into the struct.
func TestDecodeStrict(t *testing.T) {
	type answer struct {
		Decision string `json:"decision"`
		Scope    string `json:"scope,omitempty"`
		Skip     string `json:"-"`
		hidden   string //nolint:unused // unexported: never a member
	}
	for _, tc := range []struct {
		name, body string
		want       string // "" = decodes; else a part of the error message
		decision   string
	}{
		{"exact", `{"decision":"allow","scope":"once"}`, "", "allow"},
		{"empty object", `{}`, "", ""},
		{"spaces around", " \n{\"decision\":\"deny\"}\n", "", "deny"},
		{"wrong case", `{"Decision":"allow"}`, `unknown field "Decision" (names are case-sensitive: did you mean "decision"?)`, ""},
		{"upper case", `{"DECISION":"allow"}`, `"DECISION"`, ""},
		{"unknown", `{"decision":"allow","why":"x"}`, `unknown field "why"`, ""},
		{"dash field", `{"Skip":"x"}`, `unknown field "Skip"`, ""},
		{"unexported", `{"hidden":"x"}`, `unknown field "hidden"`, ""},
		{"array", `[]`, "body must be a JSON object, not a JSON array", ""},
		{"string", `"allow"`, "body must be a JSON object, not a JSON string", ""},
		{"number", `3`, "body must be a JSON object, not a JSON number", ""},
		{"null", `null`, "body must be a JSON object, not null", ""},
		{"empty", ``, "the body is empty", ""},
		{"blank", "  \n", "the body is empty", ""},
		{"broken", `{"decision":`, "not JSON", ""},
		{"two values", `{} {}`, "more than one JSON value", ""},
		{"wrong type", `{"decision":3}`, "field decision: want a string, not a JSON number", ""},
	} {
		var got answer
		err := decodeStrict([]byte(tc.body), &got)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want == "" && got.Decision != tc.decision:
			t.Errorf("%s: decision %q, want %q", tc.name, got.Decision, tc.decision)
		case tc.want != "":
			var ae *apiError
			if !errors.As(err, &ae) || ae.Code != CodeBadRequest || !strings.Contains(ae.Message, tc.want) {
				t.Errorf("%s: error %v, want bad_request with %q", tc.name, err, tc.want)
			}
		}
	}
}
