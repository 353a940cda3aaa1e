package mcpname

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"everything", true}, {"my-server_2", true}, {"a_b", true},
		{"", false}, {"a__b", false}, {"_a", false}, {"a_", false}, {"a b", false},
		{"a.b", false}, {"évery", false}, {"a/b", false}, {strings.Repeat("x", MaxLen), true},
		{strings.Repeat("x", MaxLen+1), false},
	} {
		if err := Check(c.name); (err == nil) != c.ok {
			t.Errorf("Check(%q) = %v, want ok %v", c.name, err, c.ok)
		}
	}
}
