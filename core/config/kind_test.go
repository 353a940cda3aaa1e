package config

import (
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// TestKindOfNamesNoGoType: every value a TOML or JSON file can hold is named
// in words (a date was "a toml.LocalDateTime").
func TestKindOfNamesNoGoType(t *testing.T) {
	var d map[string]any
	if err := toml.Unmarshal([]byte("a = 1979-05-27\nb = 1979-05-27T07:32:00\nc = 07:32:00\nd = 1979-05-27T07:32:00Z\ne = 1.5\nf = [1]\ng = {x = 1}\nh = true\ni = \"s\"\nj = 2\n"), &d); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a": "a date or time", "b": "a date or time", "c": "a date or time", "d": "a date or time",
		"e": "a number", "f": "an array", "g": "a table", "h": "true or false", "i": "a string", "j": "a number"}
	for k, v := range d {
		got := kindOf(v)
		if got != want[k] || strings.Contains(got, ".") {
			t.Errorf("kindOf(%s = %v) = %q, want %q", k, v, got, want[k])
		}
	}
}
