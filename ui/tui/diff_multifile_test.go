package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"pincer/themes"
)

// multiFilePatch is apply_patch's diff of a patch that updates m.py (+1 −1),
// adds pkg/new.py (+1) and deletes out.txt (−1): +2 −2 in all.
const multiFilePatch = `--- a/m.py
+++ b/m.py
@@ -1,3 +1,3 @@
 import os
-x = 1
+x = 2
 print(x)
--- /dev/null
+++ b/pkg/new.py
@@ -0,0 +1 @@
+NEW = True
--- a/out.txt
+++ /dev/null
@@ -1 +0,0 @@
-gone
`

// TestDiffStats (issue 17): only hunk lines are counted — a later file's
// "---"/"+++" labels are not a removed and an added line — and a diff of
// several files is named "N files".
func TestDiffStats(t *testing.T) {
	for _, c := range []struct {
		name, text, file string
		added, removed   int
	}{
		{"multi-file apply_patch", multiFilePatch, "3 files", 2, 2},
		{"one file", "--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n-a\n+b\n c\n", "b/m.py", 1, 1},
		{"a removed line starting with --", "--- a/m.lua\n+++ b/m.lua\n@@ -1,2 +1,2 @@\n--- a comment\n+++x\n c\n", "b/m.lua", 1, 1},
		{"new file", "--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n", "b/n.txt", 2, 0},
		{"deleted file", "--- a/o.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-o\n", "a/o.txt", 0, 1},
		{"headers without counts", "--- a/x\n+++ b/x\n@@\n-a\n+b\n--- a/y\n+++ b/y\n@@\n-c\n+d\n", "2 files", 2, 2},
		{"no newline note", "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n", "b/x", 1, 1},
	} {
		file, add, del := diffStats(c.text)
		if file != c.file || add != c.added || del != c.removed {
			t.Errorf("%s: %q +%d −%d, want %q +%d −%d", c.name, file, add, del, c.file, c.added, c.removed)
		}
	}
}

// TestDiffPaneMultiFilePatch (issue 17): the diff pane's title of a
// multi-file apply_patch says "3 files +2 −2", and each file's name heads its
// hunks instead of its labels showing as removed and added lines.
func TestDiffPaneMultiFilePatch(t *testing.T) {
	th := themes.Dark()
	sim := tcell.NewSimulationScreen("UTF-8")
	if err := sim.Init(); err != nil {
		t.Fatal(err)
	}
	sim.SetSize(60, 24)
	p := newDiffPane(func() diffContent {
		return diffContent{Key: "k", Title: "apply_patch", Text: multiFilePatch, Diff: true}
	}, th.Style)
	p.SetRect(0, 0, 60, 24)
	p.Draw(sim)
	sim.Show()
	text := screenLines(sim)
	for _, want := range []string{"Diff: 3 files +2 −2", "b/m.py", "b/pkg/new.py", "a/out.txt", "+NEW = True", "-gone"} {
		if !strings.Contains(text, want) {
			t.Errorf("%q missing:\n%s", want, text)
		}
	}
	for _, not := range []string{"+++", "---", "/dev/null"} {
		if strings.Contains(text, not) {
			t.Errorf("%q shown:\n%s", not, text)
		}
	}
}
