package learn

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestAttackDecideNeverShadows: a proposal takes a free name, or updates the
// learned skill of that name at the same target; a name a built-in, a
// command, a hand-written or a plugin's skill, or another pending proposal
// holds is never proposed — the fallback name is tried, then nothing.
func TestAttackDecideNeverShadows(t *testing.T) {
	root := t.TempDir()
	target := func(n string) (string, error) { return filepath.Join(root, ".claude/skills", n, "SKILL.md"), nil }
	learnedFile, _ := target("run-tests")
	held := map[string]Taken{
		"fix-lint":  {File: filepath.Join(root, ".claude/skills/fix-lint/SKILL.md")}, // hand-written
		"deploy":    {},                                                              // a command or a pending candidate
		"run-tests": {File: learnedFile, Learned: true},
		"elsewhere": {File: "/home/u/.claude/skills/elsewhere/SKILL.md", Learned: true}, // learned, but the user's
	}
	taken := func(n string) (Taken, bool) { t, ok := held[n]; return t, ok }
	for _, c := range []struct {
		draft, fallback string
		wantName        string
		wantOp          Op
		wantWhy         string
	}{
		{"lint-go", "fix-lint", "lint-go", OpAdd, ""},
		{"fix-lint", "lint-fix", "lint-fix", OpAdd, ""},
		{"fix-lint", "deploy", "", "", "taken"},
		{"run-tests", "", "run-tests", OpUpdate, ""},
		{"elsewhere", "", "", "", "taken"},
		{"commit", "", "", "", "command"},
		{"../x", "fix-lint", "", "", "taken"},
		{"", "", "", "", "empty"},
	} {
		p, why := Decide(Draft{Name: c.draft, Description: "d", Body: "b"}, c.fallback, taken, target)
		if p.Draft.Name != c.wantName || p.Op != c.wantOp || !strings.Contains(why, c.wantWhy) || (c.wantWhy == "") != (why == "") {
			t.Errorf("Decide(%q, %q) = %q %q %q, %q", c.draft, c.fallback, p.Draft.Name, p.Op, p.Target, why)
		}
		if p.Op != "" && p.Target != filepath.Join(root, ".claude/skills", c.wantName, "SKILL.md") {
			t.Errorf("target %s", p.Target)
		}
	}
}
