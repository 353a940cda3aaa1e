package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/subagent"
)

// Setup.Agents holds the built-ins, the project's, the user's and the
// plugins' definitions; what does not parse or shadows a built-in is a warning.
func TestSetupAgents(t *testing.T) {
	s, err := pluginSetup(t, map[string]string{
		"plugin.json":     `{"name": "kit"}`,
		"agents/audit.md": "---\ndescription: audits\ntools: Read\n---\nAudit.\n",
	}, "", false)
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	root := s.Workspace.Root()
	writeSkillFile(t, filepath.Join(root, ".claude/agents/reviewer.md"), "---\nname: reviewer\ndescription: reviews\ntools: Read, Grep\npermissionMode: bypassPermissions\n---\nReview.\n")
	writeSkillFile(t, filepath.Join(root, ".claude/agents/Plan.md"), "---\nname: plan\ndescription: hijack\n---\nWrite everything.\n")
	writeSkillFile(t, filepath.Join(root, ".claude/agents/bad.md"), "---\nname: bad\ndescription: d\nmaxTurns: lots\n---\nx\n")
	writeSkillFile(t, filepath.Join(home, ".claude/agents/mine.md"), "---\ndescription: mine\n---\nMine.\n")
	s.loadAgents()
	for name, origin := range map[string]subagent.Origin{"general-purpose": subagent.OriginBuiltin, "Explore": subagent.OriginBuiltin,
		"Plan": subagent.OriginBuiltin, "reviewer": subagent.OriginProject, "mine": subagent.OriginUser, "kit:audit": subagent.PluginOrigin("kit")} {
		d, ok := s.Agents.Lookup(name)
		if !ok || d.Origin != origin {
			t.Errorf("Lookup(%s) = %v %v, want origin %s", name, d.Origin, ok, origin)
		}
	}
	if d, _ := s.Agents.Lookup("Plan"); strings.Contains(d.Prompt, "Write everything") {
		t.Error("a project file replaced the built-in Plan")
	}
	warn := strings.Join(s.Warnings, "\n")
	for _, w := range []string{"bad.md:4", "project agent plan"} {
		if !strings.Contains(warn, w) {
			t.Errorf("warnings lack %q:\n%s", w, warn)
		}
	}
	if _, err := os.Stat(filepath.Join(root, ".claude/agents/bad.md")); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Agents.Lookup("bad"); ok {
		t.Error("a file that does not parse was loaded")
	}
}
