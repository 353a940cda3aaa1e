package cli

import (
	"os"
	"path/filepath"
	"pincer/core/config"
	"strings"
	"testing"
)

func TestLoadKeyMap(t *testing.T) {
	ws := t.TempDir()
	t.Setenv("PINCER_HOME", t.TempDir())
	if err := os.MkdirAll(filepath.Join(ws, ".pincer"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := "[keys]\nsend = \"ctrl+s\"\nnope = \"x\"\n"
	if err := os.WriteFile(filepath.Join(ws, ".pincer", "config.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	km, warns := loadKeyMap(config.Read(config.PathsFrom(os.Getenv), ws))
	if len(warns) != 1 || !strings.Contains(warns[0], "nope") {
		t.Errorf("warnings %v, want one about the unknown action", warns)
	}
	found := false
	for _, b := range km.Bindings() {
		if b.Action == "send" {
			for _, k := range b.Keys {
				found = found || strings.Contains(strings.ToLower(k.String()), "ctrl+s")
			}
		}
	}
	if !found {
		t.Errorf("send is not bound to ctrl+s: %+v", km.Bindings())
	}
}
