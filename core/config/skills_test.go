package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSkillsTable: the user's [skills] applies; a project's is a warning at
// its line and never applied (a repository must not spend the person's
// model calls on proposals nor choose where skills are written); bad values
// and unknown keys are warnings and leave the default.
func TestSkillsTable(t *testing.T) {
	home, _, ws, read := readFixture(t)
	write(t, filepath.Join(home, "config.toml"), "[skills]\nlearn_min_steps = 5\nlearn_per_session = 2\nlearn_scope = \"user\"\n")
	write(t, ProjectPath(ws), "[skills]\nlearn = true\nlearn_per_session = 100\nlearn_scope = \"project\"\n")
	src, fatal := read()
	if len(fatal) != 0 {
		t.Fatal(fatal)
	}
	got, errs := src.Skills()
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), ".pincer/config.toml:1:") || !strings.Contains(errs[0].Error(), "not applied") {
		t.Errorf("want one warning naming the project file, got %v", errs)
	}
	if !got.Learn() || got.MinSteps != 5 || got.PerSession != 2 || got.Scope != "user" {
		t.Fatalf("got %+v", got)
	}
	for _, w := range src.Errors() {
		if strings.Contains(w.Error(), "skills") {
			t.Errorf("[skills] reported as unknown: %v", w)
		}
	}
	for _, tc := range []struct{ user, want string }{
		{"[skills]\nlearn = false\n", ""},
		{"[skills]\nlearn = \"off\"\n", "learn"},
		{"[skills]\nlearn_min_steps = 0\n", "learn_min_steps"},
		{"[skills]\nlearn_per_session = 1000\n", "learn_per_session"},
		{"[skills]\nlearn_scope = \"../x\"\n", "learn_scope"},
		{"[skills]\nlearn_every = 3\n", `unknown key "learn_every"`},
		{"skills = 3\n", "must be a table"},
	} {
		home, _, _, read := readFixture(t)
		write(t, filepath.Join(home, "config.toml"), tc.user)
		src, _ := read()
		got, errs := src.Skills()
		if tc.want == "" {
			if len(errs) != 0 || got.Learn() {
				t.Errorf("%q: %+v %v", tc.user, got, errs)
			}
			continue
		}
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), tc.want) || !strings.Contains(errs[0].Error(), "config.toml:") {
			t.Errorf("%q: want a warning about %s, got %v", tc.user, tc.want, errs)
		}
		if got.MinSteps != 0 || got.PerSession != 0 || got.Scope != "" || !got.Learn() {
			t.Errorf("%q: a bad value applied: %+v", tc.user, got)
		}
	}
}
