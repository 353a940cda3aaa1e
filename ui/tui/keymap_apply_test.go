package tui

import (
	"strings"
	"testing"
)

func TestKeyMapApply(t *testing.T) {
	km := DefaultKeyMap()
	bad := km.Apply("/p/config.toml", map[string]string{"send": "ctrl+s", "nope": "x", "newline": "ctrl+"})
	if len(bad) != 2 || !strings.HasPrefix(bad[0], "/p/config.toml: [keys] newline: ") || !strings.HasPrefix(bad[1], "/p/config.toml: [keys] nope: ") {
		t.Errorf("problems %q, want one for newline then one for nope", bad)
	}
	found := false
	for _, b := range km.Bindings() {
		for _, k := range b.Keys {
			found = found || b.Action == "send" && strings.Contains(strings.ToLower(k.String()), "ctrl+s")
		}
	}
	if !found {
		t.Errorf("send is not bound to ctrl+s: %+v", km.Bindings())
	}
}

// TestKeyMapApplySwap: a table that swaps keys between actions applies as a
// whole, in any order of its entries; a real conflict is still reported and
// leaves the action's keys as they were.
func TestKeyMapApplySwap(t *testing.T) {
	cases := []struct {
		name     string
		table    map[string]string
		problems []string // the actions reported
		send     string   // send's keys after
		newline  string
	}{
		{"newline to enter, send elsewhere", map[string]string{"newline": "enter", "send": "ctrl+s"}, nil, "Ctrl+S", "Enter"},
		{"a swap", map[string]string{"newline": "enter", "send": "shift+enter"}, nil, "Shift+Enter", "Enter"},
		{"newline to enter alone", map[string]string{"newline": "enter"}, []string{"newline"}, "Enter", "Shift+Enter/Alt+Enter/Ctrl+J"},
		{"both to one key", map[string]string{"newline": "ctrl+s", "send": "ctrl+s"}, []string{"newline"}, "Ctrl+S", "Shift+Enter/Alt+Enter/Ctrl+J"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			km := DefaultKeyMap()
			bad := km.Apply("/p/config.toml", c.table)
			if len(bad) != len(c.problems) {
				t.Fatalf("problems %q, want for %q", bad, c.problems)
			}
			for i, a := range c.problems {
				if !strings.HasPrefix(bad[i], "/p/config.toml: [keys] "+a+": ") {
					t.Errorf("problem %d = %q, want for %s", i, bad[i], a)
				}
			}
			if got := km.KeysOf(ActSend); got != c.send {
				t.Errorf("send = %s, want %s", got, c.send)
			}
			if got := km.KeysOf(ActNewline); got != c.newline {
				t.Errorf("newline = %s, want %s", got, c.newline)
			}
		})
	}
}
