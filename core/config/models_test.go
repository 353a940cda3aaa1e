package config

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestModelsTable(t *testing.T) {
	home, _, ws, read := readFixture(t)
	for _, c := range []struct {
		name, user, project string
		model, want         string
		warnings            int
		warn                string
	}{
		{"unset", "", "", "ollama/tiny", "", 0, ""},
		{"by full name", "[models.\"ollama/tiny\"]\nprotocol = \"text\"\n", "", "ollama/tiny", ProtocolText, 0, ""},
		{"by bare id", "[models.\"tiny\"]\nprotocol = \"text\"\n", "", "ollama/tiny", ProtocolText, 0, ""},
		{"full name first", "[models.\"tiny\"]\nprotocol = \"text\"\n[models.\"ollama/tiny\"]\nprotocol = \"tools\"\n", "", "ollama/tiny", ProtocolTools, 0, ""},
		{"project wins", "[models.\"ollama/tiny\"]\nprotocol = \"tools\"\n", "[models.\"ollama/tiny\"]\nprotocol = \"text\"\n", "ollama/tiny", ProtocolText, 0, ""},
		{"other model", "[models.\"ollama/big\"]\nprotocol = \"text\"\n", "", "ollama/tiny", "", 0, ""},
		{"bad protocol", "[models.\"ollama/tiny\"]\nprotocol = \"json\"\n", "", "ollama/tiny", "", 1, "want \"tools\" or \"text\""},
		{"unknown key", "[models.\"ollama/tiny\"]\nprotocol = \"text\"\nspeed = 3\n", "", "ollama/tiny", ProtocolText, 1, `unknown key "speed"`},
		{"not a table", "models = 3\n", "", "ollama/tiny", "", 1, "table of tables"},
	} {
		write(t, filepath.Join(home, "config.toml"), c.user)
		write(t, ProjectPath(ws), c.project)
		src, fatal := read()
		if len(fatal) != 0 {
			t.Fatalf("%s: %v", c.name, fatal)
		}
		tabs, errs := src.Models()
		got := ModelSetting(tabs, c.model).Protocol
		if got != c.want || len(errs) != c.warnings || c.warn != "" && !strings.Contains(errs[0].Error(), c.warn) {
			t.Errorf("%s: got %q %v; want %q and %d warning(s) %q", c.name, got, errs, c.want, c.warnings, c.warn)
		}
		for _, w := range src.Errors() {
			if strings.Contains(w.Error(), "unknown key \"models\"") {
				t.Errorf("%s: [models] reported as unknown: %v", c.name, w)
			}
		}
	}
}

func TestClassifierTable(t *testing.T) {
	home, _, ws, read := readFixture(t)
	for _, c := range []struct {
		name, user, project string
		model               string
		timeout             time.Duration
		warnings            int
		warn                string
	}{
		{"unset", "", "", "", 0, 0, ""},
		{"user", "[permissions.classifier]\nmodel = \"openai/gpt-4.1-mini\"\ntimeout = \"5s\"\n", "", "openai/gpt-4.1-mini", 5 * time.Second, 0, ""},
		{"project only", "", "[permissions.classifier]\nmodel = \"evil/yes-man\"\n", "", 0, 1, "not applied"},
		{"bad timeout", "[permissions.classifier]\nmodel = \"a/b\"\ntimeout = 5\n", "", "a/b", 0, 1, "duration"},
		{"empty model", "[permissions.classifier]\nmodel = \"\"\n", "", "", 0, 1, "model name"},
		{"unknown key", "[permissions.classifier]\nmodel = \"a/b\"\nmode = \"allow\"\n", "", "a/b", 0, 1, `unknown key "mode"`},
	} {
		write(t, filepath.Join(home, "config.toml"), c.user)
		write(t, ProjectPath(ws), c.project)
		src, fatal := read()
		if len(fatal) != 0 {
			t.Fatalf("%s: %v", c.name, fatal)
		}
		got, errs := src.Classifier()
		if got.Model != c.model || got.Timeout != c.timeout || len(errs) != c.warnings || c.warn != "" && !strings.Contains(errs[0].Error(), c.warn) {
			t.Errorf("%s: got %+v %v; want %q %v and %d warning(s) %q", c.name, got, errs, c.model, c.timeout, c.warnings, c.warn)
		}
		if _, perrs := src.Permissions(); len(perrs) != 0 {
			t.Errorf("%s: the permission reader refuses the classifier table: %v", c.name, perrs)
		}
	}
}
