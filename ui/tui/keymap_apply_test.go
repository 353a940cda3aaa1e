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
