package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestWorkbenchTable: the user's wide_columns applies, a project's
// [workbench] is a warning at its line and not applied (userOnlyTables); a
// value out of range or an unknown key is a warning at its line and is left
// out.
func TestWorkbenchTable(t *testing.T) {
	home, _, ws, read := readFixture(t)
	write(t, filepath.Join(home, "config.toml"), "[workbench]\nwide_columns = 180\n")
	write(t, ProjectPath(ws), "[workbench]\nwide_columns = 160\n")
	src, fatal := read()
	if len(fatal) != 0 {
		t.Fatal(fatal)
	}
	got, errs := src.Workbench()
	if got.WideColumns != 180 || len(errs) != 1 || !strings.Contains(errs[0].Error(), ".pincer/config.toml:1:") ||
		!strings.Contains(errs[0].Error(), "not applied") {
		t.Errorf("got %+v %v, want the user's 180 and one warning naming the project file", got, errs)
	}
	for _, w := range src.Errors() {
		if strings.Contains(w.Error(), "workbench") {
			t.Errorf("[workbench] reported as unknown: %v", w)
		}
	}

	write(t, ProjectPath(ws), "")
	write(t, filepath.Join(home, "config.toml"), "[workbench]\nwide_columns = 3\nlayout = \"grid\"\n")
	src, _ = read()
	got, errs = src.Workbench()
	if got.WideColumns != 0 || len(errs) != 2 {
		t.Fatalf("got %+v %v, want nothing set and two warnings", got, errs)
	}
	if all := errs[0].Error() + "\n" + errs[1].Error(); !strings.Contains(all, "config.toml:2:1: [workbench] wide_columns") || !strings.Contains(all, `unknown key "layout"`) {
		t.Errorf("warnings: %v", errs)
	}
}

// TestWorkbenchApprovalFocus: approval_focus is true unless the user's file
// says false (a project's is a warning, never applied); a value that is not a
// boolean is a warning and the default stands.
func TestWorkbenchApprovalFocus(t *testing.T) {
	home, _, ws, read := readFixture(t)
	for _, tc := range []struct {
		user, project string
		want          bool
		warns         int
	}{
		{"", "", true, 0},
		{"[workbench]\napproval_focus = false\n", "", false, 0},
		{"[workbench]\napproval_focus = false\n", "[workbench]\napproval_focus = true\n", false, 1},
		{"", "[workbench]\napproval_focus = false\n", true, 1},
		{"[workbench]\napproval_focus = \"no\"\n", "", true, 1},
	} {
		write(t, filepath.Join(home, "config.toml"), tc.user)
		write(t, ProjectPath(ws), tc.project)
		src, _ := read()
		got, errs := src.Workbench()
		if got.ApprovalFocus() != tc.want || len(errs) != tc.warns {
			t.Errorf("%q + %q: ApprovalFocus %v, warnings %v; want %v, %d", tc.user, tc.project, got.ApprovalFocus(), errs, tc.want, tc.warns)
		}
	}
}
