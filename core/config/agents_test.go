package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestAgentsTable: the user's [agents] teams = true applies; a project's
// [agents] is a warning and not applied (a repository cannot turn teams on);
// a wrong type or an unknown key is a warning and left out.
func TestAgentsTable(t *testing.T) {
	home, _, ws, read := readFixture(t)
	for _, c := range []struct {
		name, user, project string
		want                bool
		warnings            int
		warn                string
	}{
		{"unset", "", "", false, 0, ""},
		{"user on", "[agents]\nteams = true\n", "", true, 0, ""},
		{"project only", "", "[agents]\nteams = true\n", false, 1, "not applied"},
		{"user off, project on", "[agents]\nteams = false\n", "[agents]\nteams = true\n", false, 1, "not applied"},
		{"wrong type", "[agents]\nteams = \"yes\"\n", "", false, 1, "want true or false"},
		{"unknown key", "[agents]\nteams = true\nmax = 3\n", "", true, 1, `unknown key "max"`},
	} {
		write(t, filepath.Join(home, "config.toml"), c.user)
		write(t, ProjectPath(ws), c.project)
		src, fatal := read()
		if len(fatal) != 0 {
			t.Fatalf("%s: %v", c.name, fatal)
		}
		got, errs := src.Agents()
		if got.Teams != c.want || len(errs) != c.warnings || c.warn != "" && !strings.Contains(errs[0].Error(), c.warn) {
			t.Errorf("%s: got %+v %v; want teams %v and %d warning(s) %q", c.name, got, errs, c.want, c.warnings, c.warn)
		}
		for _, w := range src.Errors() {
			if strings.Contains(w.Error(), "agents") {
				t.Errorf("%s: [agents] reported as unknown: %v", c.name, w)
			}
		}
	}
}
