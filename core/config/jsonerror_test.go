package config

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestJSONError: a JSON decoding error into a Go value reads as plain words
// at FILE:LINE:COL, naming the field and the kinds, never a Go type.
func TestJSONError(t *testing.T) {
	type rec struct {
		Version  int               `json:"version"`
		Projects map[string]string `json:"projects"`
		On       bool              `json:"on"`
		List     []string          `json:"list"`
	}
	cases := []struct{ data, want string }{
		{"{\n  \"version\": \"x\"\n}", `f.json:2:14: version must be a number, not a string`},
		{`{"projects": [1]}`, `f.json:1:14: projects must be an object, not an array`},
		{`{"on": 1}`, `f.json:1:8: on must be true or false, not a number`},
		{`{"list": {"a": 1}}`, `f.json:1:10: list must be an array, not an object`},
		{"{\n\"version\": 1,,}", `f.json:2:14: invalid character ',' looking for beginning of object key string`},
		{`{"version": 1`, `f.json:1: the file ends before its JSON does`},
	}
	for _, c := range cases {
		var r rec
		err := json.Unmarshal([]byte(c.data), &r)
		if err == nil {
			t.Fatalf("%q decoded", c.data)
		}
		got := JSONError("f.json", []byte(c.data), err).Error()
		if got != c.want || strings.Contains(got, "Go ") || strings.Contains(got, "json: ") {
			t.Errorf("%q: %q, want %q", c.data, got, c.want)
		}
	}
}
