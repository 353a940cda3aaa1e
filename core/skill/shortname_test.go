package skill

import (
	"path/filepath"
	"testing"
)

// TestCommandShortNames: a command in a commands/ subdirectory answers to its
// file's name, as in Claude Code, and to DIR:NAME; an invocable of exactly
// that name keeps it; of two subdirectory commands of one name the first in
// discovery order (user before project, sorted directories) gets it.
func TestCommandShortNames(t *testing.T) {
	root, home, cfg := t.TempDir(), t.TempDir(), t.TempDir()
	write(t, filepath.Join(root, ".claude/commands/frontend/lint.md"), "frontend lint\n")
	write(t, filepath.Join(root, ".claude/commands/zeta/lint.md"), "zeta lint\n")
	write(t, filepath.Join(root, ".claude/commands/a/b/deep.md"), "deep\n")
	write(t, filepath.Join(root, ".claude/commands/tools/fmt.md"), "a command named as a skill\n")
	write(t, filepath.Join(root, ".claude/skills/fmt/SKILL.md"), "---\ndescription: the skill fmt\n---\n")
	write(t, filepath.Join(root, ".claude/commands/git/commit.md"), "not the built-in\n")
	write(t, filepath.Join(cfg, "commands/mine/lint2.md"), "user lint2\n")
	write(t, filepath.Join(root, ".claude/commands/other/lint2.md"), "project lint2\n")
	d := DirsFor(root, home, cfg)
	d.Builtin = []Skill{{Name: "commit", Description: "built-in", Origin: OriginBuiltin, Kind: KindSkill, UserInvocable: true}}
	c := Discover(d)
	for _, tc := range []struct{ name, want string }{
		{"/lint", "frontend:lint"},
		{"/frontend:lint", "frontend:lint"},
		{"/zeta:lint", "zeta:lint"},
		{"/deep", "a:b:deep"},
		{"/fmt", "fmt"},
		{"/tools:fmt", "tools:fmt"},
		{"/commit", "commit"},
		{"/git:commit", "git:commit"},
		{"/lint2", "mine:lint2"},
		{"/other:lint2", "other:lint2"},
	} {
		s, ok := c.Lookup(tc.name)
		if !ok || s.Name != tc.want {
			t.Errorf("Lookup(%s) = %q %v, want %q", tc.name, s.Name, ok, tc.want)
		}
	}
	found := false
	for _, e := range c.Entries() {
		found = found || e.Name == "lint" && e.Description == "frontend lint (project:frontend)"
	}
	if !found {
		t.Errorf("no /lint entry described (project:frontend): %+v", c.Entries())
	}
	if _, ok := c.Lookup("/frontend/lint"); ok {
		t.Error("/frontend/lint found: a slash is not a namespace")
	}
}
