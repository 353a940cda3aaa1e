package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestMemoryTable: the user's [memory] applies; a project's is a warning at
// its line and never applied (a repository must not turn the person's
// memory on, off or up); bad values and unknown keys are warnings and leave
// the default.
func TestMemoryTable(t *testing.T) {
	home, _, ws, read := readFixture(t)
	write(t, filepath.Join(home, "config.toml"), "[memory]\nobserve = false\nmax_per_session = 2\n")
	write(t, ProjectPath(ws), "[memory]\nenabled = false\nmax_per_session = 100\n")
	src, fatal := read()
	if len(fatal) != 0 {
		t.Fatal(fatal)
	}
	got, errs := src.Memory()
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), ".pincer/config.toml:1:") || !strings.Contains(errs[0].Error(), "not applied") {
		t.Errorf("want one warning naming the project file, got %v", errs)
	}
	if !got.Enabled() || got.Observe() || got.PerSession() != 2 {
		t.Fatalf("got %+v", got)
	}
	for _, w := range src.Errors() {
		if strings.Contains(w.Error(), "memory") {
			t.Errorf("[memory] reported as unknown: %v", w)
		}
	}
	for _, tc := range []struct {
		user, want       string
		enabled, observe bool
	}{
		{"", "", true, true},
		{"[memory]\nenabled = false\n", "", false, false},
		{"[memory]\nenabled = \"no\"\n", "enabled", true, true},
		{"[memory]\nobserve = 1\n", "observe", true, true},
		{"[memory]\nmax_per_session = 0\n", "max_per_session", true, true},
		{"[memory]\nmax_per_session = 1000\n", "max_per_session", true, true},
		{"[memory]\nremember_all = true\n", `unknown key "remember_all"`, true, true},
		{"memory = 3\n", "must be a table", true, true},
	} {
		home, _, _, read := readFixture(t)
		write(t, filepath.Join(home, "config.toml"), tc.user)
		src, _ := read()
		got, errs := src.Memory()
		if got.Enabled() != tc.enabled || got.Observe() != tc.observe || got.PerSession() != DefaultMemoryPerSession {
			t.Errorf("%q: got %+v", tc.user, got)
		}
		if tc.want == "" {
			if len(errs) != 0 {
				t.Errorf("%q: %v", tc.user, errs)
			}
			continue
		}
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), tc.want) || !strings.Contains(errs[0].Error(), "config.toml:") {
			t.Errorf("%q: want a warning about %s, got %v", tc.user, tc.want, errs)
		}
	}
}
