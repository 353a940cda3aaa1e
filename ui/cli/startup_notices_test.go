package cli

import (
	"errors"
	"strings"
	"testing"

	"pincer/core/app"
)

// TestStartupNotices: the configuration's errors come first; with one, "no
// model" says to fix the file (not to use /model, which fails on it); the
// other model errors and the warnings keep their text, in that order.
func TestStartupNotices(t *testing.T) {
	keyErr := errors.New("no API key for anthropic: set ANTHROPIC_API_KEY")
	cases := []struct {
		name     string
		modelErr error
		cfg      []string
		warn     []string
		want     []string // level: prefix of text
	}{
		{"broken config, no model", app.ErrNoModel, []string{"config.toml:14:6: expected '='"}, []string{"w1"},
			[]string{"error:configuration: config.toml:14:6", "warning:no model: the configuration does not parse", "warning:w1"}},
		{"no model", app.ErrNoModel, nil, nil, []string{"warning:" + app.NoModelInWorkbench}},
		{"no key, broken config", keyErr, []string{"x"}, nil, []string{"error:configuration: x", "warning:no API key"}},
		{"nothing wrong", nil, nil, []string{"w"}, []string{"warning:w"}},
	}
	for _, c := range cases {
		got := startupNotices(c.modelErr, c.cfg, c.warn)
		if len(got) != len(c.want) {
			t.Errorf("%s: %d notices %v, want %d", c.name, len(got), got, len(c.want))
			continue
		}
		for i, w := range c.want {
			level, text, _ := strings.Cut(w, ":")
			if got[i].level != level || !strings.HasPrefix(got[i].text, text) {
				t.Errorf("%s: notice %d = %s %q, want %s %q…", c.name, i, got[i].level, got[i].text, level, text)
			}
		}
	}
}
