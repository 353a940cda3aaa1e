package permission

import (
	"os"
	"path/filepath"
	"testing"
)

// TestImportedInstructionFilesAsk: a file the project's instructions import
// (Input.Instructions) is protected like AGENTS.md: a write asks in every mode,
// through a symlink or a `..` too; other files are unaffected.
func TestImportedInstructionFilesAsk(t *testing.T) {
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(ws, "docs", "notes.md")
	if err := os.WriteFile(notes, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(notes, filepath.Join(ws, "link.md")); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{notes, filepath.Join(ws, "docs", "..", "docs", "notes.md"), filepath.Join(ws, "link.md")} {
		for _, mode := range []Mode{ModeDefault, ModeAcceptEdits, ModeBypass, ModeDontAsk} {
			in := Input{Tool: "Write", Kind: KindEdit, Paths: []string{path}, Workspace: ws, Instructions: []string{notes}}
			d := Evaluate(mode, RuleSet{Allow: []Rule{{Tool: "Write"}, {Tool: "Edit"}}}, in)
			want := Ask
			if mode == ModeDontAsk {
				want = Deny
			}
			if d.Behavior != want || mode != ModeDontAsk && d.By != "protected" {
				t.Errorf("%s %s: %s by %q (%s), want %s by protected", mode, path, d.Behavior, d.By, d.Reason, want)
			}
		}
	}
	other := Input{Tool: "Write", Kind: KindEdit, Paths: []string{filepath.Join(ws, "docs", "other.md")}, Workspace: ws, Instructions: []string{notes}}
	if d := Evaluate(ModeAcceptEdits, RuleSet{}, other); d.Behavior != Allow {
		t.Errorf("another file: %s (%s), want allow", d.Behavior, d.Reason)
	}
}
