package config

import (
	"strings"
	"testing"
)

// TestExpand: Claude Code's ${VAR} and ${VAR:-default}, and every malformed
// reference an error, never half expanded.
func TestExpand(t *testing.T) {
	env := map[string]string{"HOME": "/home/u", "EMPTY": "", "TOKEN": "s3cret", "REF": "${HOME}"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	cases := []struct {
		in, want, err string
	}{
		{in: "plain", want: "plain"},
		{in: "${HOME}/bin", want: "/home/u/bin"},
		{in: "a${HOME}b${TOKEN}c", want: "a/home/ub" + "s3cretc"},
		{in: "Bearer ${TOKEN}", want: "Bearer s3cret"},
		{in: "${MISSING:-fallback}", want: "fallback"},
		{in: "${MISSING:-}", want: ""},
		{in: "${EMPTY:-fallback}", want: ""}, // set to "": Claude Code's ?? keeps it
		{in: "${HOME:-x}", want: "/home/u"},
		{in: "$HOME and $ alone", want: "$HOME and $ alone"},
		{in: "${REF}", want: "${HOME}"}, // one pass: a value is not expanded again
		{in: "${MISSING:-a:-b}", want: "a:-b"},
		{in: "${MISSING}", err: "MISSING is not set"},
		{in: "x ${A${HOME}}", err: "is not a variable reference"},
		{in: "${MISSING:-${HOME}}", err: "a default cannot hold another"},
		{in: "${HOME", err: "not closed"},
		{in: "${}", err: "is not a variable reference"},
		{in: "${1X}", err: "is not a variable reference"},
		{in: "${HO ME}", err: "is not a variable reference"},
		{in: "${HOME-x}", err: "is not a variable reference"},
	}
	for _, c := range cases {
		got, err := newExpander(lookup).expand(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("expand(%q) = %q, %v; want error %q", c.in, got, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("expand(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

// TestExpandBudget: expansion across one file stops at MaxExpandedBytes.
func TestExpandBudget(t *testing.T) {
	big := strings.Repeat("x", 100<<10)
	x := newExpander(func(string) (string, bool) { return big, true })
	var err error
	n := 0
	for ; n < 100 && err == nil; n++ {
		_, err = x.expand("${BIG}${BIG}")
	}
	if err == nil || !strings.Contains(err.Error(), "more than") {
		t.Fatalf("after %d values: %v; want the budget error", n, err)
	}
	if n > MaxExpandedBytes/(200<<10)+1 {
		t.Fatalf("the budget held %d values of 200 KiB", n)
	}
}
