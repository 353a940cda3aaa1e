package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestModelsContextWindow: context_window of a [models."NAME"] table is a
// positive whole number of tokens; anything else is a warning naming the key
// and is left out.
func TestModelsContextWindow(t *testing.T) {
	home, _, ws, read := readFixture(t)
	for _, c := range []struct {
		name, user, project string
		want                int64
		warn                string
	}{
		{"unset", "", "", 0, ""},
		{"user", "[models.\"fake-1\"]\ncontext_window = 8192\n", "", 8192, ""},
		{"full name", "[models.\"custom/fake-1\"]\ncontext_window = 4096\n", "", 4096, ""},
		{"project wins", "[models.\"fake-1\"]\ncontext_window = 8192\n", "[models.\"fake-1\"]\ncontext_window = 2048\n", 2048, ""},
		{"with protocol", "[models.\"fake-1\"]\nprotocol = \"text\"\ncontext_window = 1000\n", "", 1000, ""},
		{"zero", "[models.\"fake-1\"]\ncontext_window = 0\n", "", 0, "positive whole number"},
		{"negative", "[models.\"fake-1\"]\ncontext_window = -5\n", "", 0, "positive whole number"},
		{"float", "[models.\"fake-1\"]\ncontext_window = 8192.5\n", "", 0, "positive whole number"},
		{"string", "[models.\"fake-1\"]\ncontext_window = \"8k\"\n", "", 0, "positive whole number"},
	} {
		write(t, filepath.Join(home, "config.toml"), c.user)
		write(t, ProjectPath(ws), c.project)
		src, fatal := read()
		if len(fatal) != 0 {
			t.Fatalf("%s: %v", c.name, fatal)
		}
		tabs, errs := src.Models()
		got := ModelSetting(tabs, "custom/fake-1").ContextWindow
		warned := len(errs) == 1 && strings.Contains(errs[0].Error(), c.warn) && strings.Contains(errs[0].Error(), "context_window")
		if got != c.want || (c.warn == "") != (len(errs) == 0) || c.warn != "" && !warned {
			t.Errorf("%s: got %d %v; want %d, warning %q", c.name, got, errs, c.want, c.warn)
		}
	}
}
