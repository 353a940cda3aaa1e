package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestWorkbenchTable: the project's wide_columns wins over the user's; a
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
	if got.WideColumns != 160 || len(errs) != 0 {
		t.Errorf("got %+v %v, want 160 and no warning", got, errs)
	}
	for _, w := range src.Errors() {
		if strings.Contains(w.Error(), "workbench") {
			t.Errorf("[workbench] reported as unknown: %v", w)
		}
	}

	write(t, ProjectPath(ws), "[workbench]\nwide_columns = 3\nlayout = \"grid\"\n")
	src, _ = read()
	got, errs = src.Workbench()
	if got.WideColumns != 180 || len(errs) != 2 {
		t.Fatalf("got %+v %v, want the user's 180 and two warnings", got, errs)
	}
	if all := errs[0].Error() + "\n" + errs[1].Error(); !strings.Contains(all, "config.toml:2:1: [workbench] wide_columns") || !strings.Contains(all, `unknown key "layout"`) {
		t.Errorf("warnings: %v", errs)
	}
}
