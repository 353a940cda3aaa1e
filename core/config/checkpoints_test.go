package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckpointsTable: the user's [checkpoints] applies; a project's is a
// warning at its line and never applied (a repository must not turn off the
// record rewind relies on); bad values and unknown keys are warnings and
// leave the default.
func TestCheckpointsTable(t *testing.T) {
	home, _, ws, read := readFixture(t)
	write(t, filepath.Join(home, "config.toml"), "[checkpoints]\nmax_file_mb = 4\nsession_budget_mb = 100\ntotal_budget_mb = 900\n")
	write(t, ProjectPath(ws), "[checkpoints]\nenabled = false\ntotal_budget_mb = 1\n")
	src, fatal := read()
	if len(fatal) != 0 {
		t.Fatal(fatal)
	}
	got, errs := src.Checkpoints()
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), ".pincer/config.toml:1:") || !strings.Contains(errs[0].Error(), "not applied") {
		t.Errorf("want one warning naming the project file, got %v", errs)
	}
	if !got.Enabled() || got.MaxFileMB != 4 || got.SessionBudgetMB != 100 || got.TotalBudgetMB != 900 {
		t.Fatalf("got %+v", got)
	}
	for _, w := range src.Errors() {
		if strings.Contains(w.Error(), "checkpoints") {
			t.Errorf("[checkpoints] reported as unknown: %v", w)
		}
	}

	for _, tc := range []struct{ user, want string }{
		{"[checkpoints]\nenabled = false\n", ""},
		{"[checkpoints]\nenabled = \"no\"\n", "enabled"},
		{"[checkpoints]\nmax_file_mb = 0\n", "max_file_mb"},
		{"[checkpoints]\nmax_file_mb = 2000\n", "max_file_mb"},
		{"[checkpoints]\nsession_budget_mb = -1\n", "session_budget_mb"},
		{"[checkpoints]\ntotal_budget_mb = \"1G\"\n", "total_budget_mb"},
		{"[checkpoints]\nkeep = 3\n", `unknown key "keep"`},
		{"checkpoints = 3\n", "must be a table"},
	} {
		home, _, _, read := readFixture(t)
		write(t, filepath.Join(home, "config.toml"), tc.user)
		src, _ := read()
		got, errs := src.Checkpoints()
		if tc.want == "" {
			if len(errs) != 0 || got.Enabled() {
				t.Errorf("%q: %+v %v", tc.user, got, errs)
			}
			continue
		}
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), tc.want) || !strings.Contains(errs[0].Error(), "config.toml:") {
			t.Errorf("%q: want a warning about %s, got %v", tc.user, tc.want, errs)
		}
		if got.MaxFileMB != 0 || got.SessionBudgetMB != 0 || got.TotalBudgetMB != 0 || !got.Enabled() {
			t.Errorf("%q: a bad value applied: %+v", tc.user, got)
		}
	}
}
