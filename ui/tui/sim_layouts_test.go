package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// The layout key cycles auto → columns → grid → stacked → auto, the notices
// line says which, and the choice is kept in Options.LayoutFile: a
// workbench opened later starts with it.
func TestLayoutCycleIsKept(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state", "layout")
	b := startBench(t, 120, 40, Options{LayoutFile: file})
	b.waitText("1 Transcript")
	b.key(tcell.KeyF4, 0, tcell.ModNone)
	s := b.waitText("layout: columns")
	ty, _ := rowOf(s, "1 Transcript")
	ly, lx := rowOf(s, "2 Timeline")
	ay, ax := rowOf(s, "3 Approvals")
	dy, dx := rowOf(s, "4 Diff")
	if ty != 0 || ly != 0 || ay != 0 || dy != 0 || !(lx < ax && ax < dx) {
		t.Errorf("columns: timeline %d,%d approvals %d,%d diff %d,%d\n%s", ly, lx, ay, ax, dy, dx, s)
	}
	b.key(tcell.KeyF4, 0, tcell.ModNone)
	s = b.waitText("layout: grid")
	ly, lx = rowOf(s, "2 Timeline")
	ay, ax = rowOf(s, "3 Approvals")
	dy, dx = rowOf(s, "4 Diff")
	if ly != 0 || ay <= 0 || dy != ay || ax > 4 || dx != lx {
		t.Errorf("grid: timeline %d,%d approvals %d,%d diff %d,%d\n%s", ly, lx, ay, ax, dy, dx, s)
	}
	b.waitFor("the layout file", func(string) bool {
		data, _ := os.ReadFile(file)
		return strings.TrimSpace(string(data)) == "grid"
	})
	b.stop()

	b = startBench(t, 120, 40, Options{LayoutFile: file})
	s = b.waitText("1 Transcript", "3 Approvals")
	if ay, ax := rowOf(s, "3 Approvals"); ay <= 0 || ax > 4 {
		t.Errorf("reopened: not the grid (approvals at %d,%d)\n%s", ay, ax, s)
	}
}

// A layout file that names no layout is a warning on the notices line, and
// the auto layout.
func TestLayoutFileBadIsAWarning(t *testing.T) {
	file := filepath.Join(t.TempDir(), "layout")
	if err := os.WriteFile(file, []byte("tabs\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	b := startBench(t, 120, 40, Options{LayoutFile: file})
	b.waitText(`unknown layout "tabs"`)
}
