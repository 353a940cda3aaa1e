package skill

import (
	"os"
	"path/filepath"
	"testing"

	"pincer/core/permission"
)

// TestLearnedSource: a SKILL.md whose source: is a session and a turn is a
// learned skill (its Entry says so); a source: of another shape is no
// learned skill's and the file still loads.
func TestLearnedSource(t *testing.T) {
	root := t.TempDir()
	for name, src := range map[string]string{
		"learned": "source:\n  session: s-1\n  turn: 4\n",
		"text":    "source: https://example.com/skills\n",
		"list":    "source: [a, b]\n",
		"nosess":  "source:\n  turn: 4\n",
		"none":    "",
	} {
		dir := filepath.Join(root, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\ndescription: d\n"+src+"---\nbody\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cat := Discover(Dirs{ProjectSkills: []string{root}, Project: permission.ProjectFiles(root, t.TempDir())})
	if len(cat.Problems) != 0 {
		t.Fatalf("problems: %v", cat.Problems)
	}
	for _, e := range cat.Entries() {
		want := e.Name == "learned"
		if (e.Learned != nil) != want {
			t.Errorf("%s: learned %+v", e.Name, e.Learned)
		}
		if want && e.Learned.String() != "session s-1, turn 4" {
			t.Errorf("learned %q", e.Learned.String())
		}
	}
	if len(cat.Entries()) != 5 {
		t.Errorf("%d entries", len(cat.Entries()))
	}
}
