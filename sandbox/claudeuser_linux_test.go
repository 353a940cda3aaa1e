package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSandboxClaudeUserFilesInWritableRoot (red team, issue 13): with HOME
// under /tmp or in the workspace, a sandboxed command wrote
// ~/.claude/settings.json (a UserPromptSubmit hook the next run ran outside the
// sandbox) or ~/.claude.json (an MCP server started unasked). Neither may be
// created or changed by any shell form, with or without a mount namespace.
func TestSandboxClaudeUserFilesInWritableRoot(t *testing.T) {
	records := []string{".claude/settings.json", ".claude/skills/zz/SKILL.md", ".claude/commands/zz.md", ".claude/CLAUDE.md", ".claude.json"}
	for _, where := range writableRoots {
		t.Run(where, func(t *testing.T) {
			e, root, home, _ := writableRootSandbox(t, where, "home")
			if err := os.MkdirAll(home, 0o700); err != nil {
				t.Fatal(err)
			}
			t.Setenv("HOME", home)
			t.Setenv("PINCER_HOME", filepath.Join(t.TempDir(), "pincer-home"))
			if err := os.Symlink(home, filepath.Join(root, "shipped-home")); err != nil {
				t.Fatal(err)
			}
			for _, rec := range records {
				abs := filepath.Join(home, rec)
				before, _ := os.ReadFile(abs)
				for _, a := range pincerDirAttacks(abs, rec, "shipped-home") {
					if res := sh(t, e, a); testing.Verbose() {
						t.Log(a, res.Output)
					}
					if after, err := os.ReadFile(abs); err == nil && string(after) != string(before) {
						t.Errorf("%q wrote %s: %q", a, abs, after)
						if rec == ".claude.json" {
							_ = os.WriteFile(abs, before, 0o600)
						} else {
							_ = os.Remove(abs)
						}
					}
				}
			}
		})
	}
}
