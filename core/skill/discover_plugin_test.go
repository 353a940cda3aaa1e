package skill

import (
	"os"
	"path/filepath"
	"testing"
)

// A plugin's skills and commands: the default directories, a skill directory
// named on its own and a single command file, all namespaced PLUGIN:x with
// origin plugin:PLUGIN.
func TestDiscoverPluginPaths(t *testing.T) {
	root := t.TempDir()
	for name, body := range map[string]string{
		"skills/tidy/SKILL.md": "---\nname: tidy\ndescription: Tidy\n---\nTidy.\n",
		"solo/SKILL.md":        "---\nname: solo\ndescription: Solo\n---\nSolo.\n",
		"commands/greet.md":    "Greet $ARGUMENTS\n",
		"commands/git/sync.md": "Sync\n",
		"extra/special.md":     "Special\n",
	} {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	c := Discover(Dirs{Plugins: []Plugin{{Name: "demo",
		SkillDirs: []string{filepath.Join(root, "skills"), filepath.Join(root, "solo")},
		CmdDirs:   []string{filepath.Join(root, "commands"), filepath.Join(root, "extra", "special.md")}}}})
	if len(c.Problems) > 0 {
		t.Fatalf("problems: %v", c.Problems)
	}
	for _, name := range []string{"demo:tidy", "demo:solo", "demo:greet", "demo:git:sync", "demo:special"} {
		s, ok := c.Lookup(name)
		if !ok {
			t.Errorf("no /%s", name)
			continue
		}
		if s.Origin != PluginOrigin("demo") {
			t.Errorf("/%s origin %q", name, s.Origin)
		}
	}
}
