package plugin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A plugin without a manifest is named after its directory and contributes
// from the default locations, as in Claude Code; the name is checked as a
// manifest's would be.
func TestLoadNoManifest(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my-plugin")
	writeTree(t, dir, map[string]string{
		"skills/tidy/SKILL.md": "---\nname: tidy\ndescription: tidies\n---\nbody\n",
		"commands/go.md":       "go!\n",
		"hooks/hooks.json":     hooksJSON,
	})
	p := Load(dir)
	if len(p.Errors) > 0 {
		t.Fatalf("errors: %s", errText(p))
	}
	if p.Name != "my-plugin" || p.Manifest != nil || len(p.Hooks) != 1 {
		t.Fatalf("plugin: %+v", p)
	}
	if got := strings.Join(append(p.SkillNames(), p.CommandNames()...), " "); got != "my-plugin:tidy my-plugin:go" {
		t.Errorf("names %q", got)
	}
	for _, bad := range []string{"my plugin", "a__b", "x_"} {
		dir := filepath.Join(t.TempDir(), bad)
		writeTree(t, dir, map[string]string{"commands/go.md": "go!\n"})
		p := Load(dir)
		if !strings.Contains(errText(p), "named after its directory") || len(p.CommandPaths) > 0 {
			t.Errorf("%q: errors %q, commands %v", bad, errText(p), p.CommandPaths)
		}
	}
}

func TestStageName(t *testing.T) {
	for _, tc := range []struct{ source, want string }{
		{"./my-plugin", "my-plugin"},
		{"/abs/dir/tools/", "tools"},
		{"https://github.com/o/fmt-kit.git", "fmt-kit"},
		{"https://github.com/o/fmt-kit/", "fmt-kit"},
		{"git@github.com:o/fmt-kit.git", "fmt-kit"},
		{"git@github.com:fmt-kit", "fmt-kit"},
		{"https://host/", "host"},
		{"/", "plugin"},
		{".", "plugin"},
	} {
		if got := stageName(tc.source); got != tc.want {
			t.Errorf("stageName(%q) = %q, want %q", tc.source, got, tc.want)
		}
	}
}

// Installing a directory without a manifest installs it under its own name; a
// broken manifest's error names the file under the path given, not the
// temporary copy; a marketplace reference says it is not supported and how
// to install instead.
func TestInstallSources(t *testing.T) {
	paths := testPaths(t)
	base := t.TempDir()
	writeTree(t, filepath.Join(base, "tool-kit"), map[string]string{"commands/hi.md": "hi\n"})
	t.Chdir(base)
	p, err := Install(context.Background(), paths, "./tool-kit", ScopeUser, base)
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := Dir(paths)
	if p.Name != "tool-kit" || p.Root != filepath.Join(dir, "tool-kit") || len(p.CommandPaths) != 1 {
		t.Fatalf("installed %+v", p)
	}
	list, _ := List(paths, base)
	if len(list) != 1 || !list[0].Enabled || len(list[0].Errors) > 0 {
		t.Fatalf("list: %+v", list)
	}

	writeTree(t, filepath.Join(base, "broken"), map[string]string{".claude-plugin/plugin.json": "{\n  \"name\": 3\n}"})
	_, err = Install(context.Background(), paths, "broken/", ScopeUser, base)
	want := filepath.Join("broken", ".claude-plugin", "plugin.json") + ":2:"
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), ".install-") {
		t.Errorf("broken manifest: %v (want %s, no .install-)", err, want)
	}

	_, err = Install(context.Background(), paths, "my-plugin@claude-plugins-official", ScopeUser, base)
	if err == nil || !strings.Contains(err.Error(), "marketplaces are not supported yet") ||
		!strings.Contains(err.Error(), "pincer plugin install ./my-plugin") || strings.Contains(err.Error(), "no such file") {
		t.Errorf("marketplace: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
}
