package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSandboxUnknownKeyAndLocalSettingsOthers: a misspelled [sandbox] key is
// fatal at its line (the table is not applied), and a table other than
// [permissions] in settings.local.toml is a warning at its line, not silence.
func TestSandboxUnknownKeyAndLocalSettingsOthers(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("[sandbox]\nnetwork = false\nrequire_landlok = true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_ = os.MkdirAll(filepath.Join(ws, ".pincer"), 0o755)
	if err := os.WriteFile(filepath.Join(ws, ".pincer", "settings.local.toml"), []byte("[permissions]\nallow = [\"Read\"]\n\n[sandbox]\nrequire_landlock = true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	src := Read(PathsFrom(func(k string) string {
		if k == "PINCER_HOME" {
			return home
		}
		return ""
	}), ws)
	layers, errs := src.Sandbox()
	if len(layers) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "config.toml:3:") || !strings.Contains(errs[0].Error(), "require_landlok: unknown key") {
		t.Errorf("sandbox layers %v, errors %v", layers, errs)
	}
	if fe, ok := errs[0].(*FileError); !ok || fe.Warning {
		t.Errorf("an unknown [sandbox] key is not fatal: %#v", errs[0])
	}
	_, perrs := src.Permissions()
	found := false
	for _, e := range perrs {
		fe, _ := e.(*FileError)
		found = found || fe != nil && fe.Warning && strings.Contains(e.Error(), "settings.local.toml:4:") && strings.Contains(e.Error(), "sandbox is not read")
	}
	if !found {
		t.Errorf("no warning for [sandbox] in settings.local.toml: %v", perrs)
	}
}
