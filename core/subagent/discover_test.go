package subagent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeAgent(t *testing.T, path, name, desc string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	src := "---\nname: " + name + "\ndescription: " + desc + "\n---\nPrompt of " + desc + ".\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

// layers is a workspace, a home and a config dir under one temp dir.
func layers(t *testing.T) (root, home, cfg string) {
	base := t.TempDir()
	root, home, cfg = filepath.Join(base, "repo"), filepath.Join(base, "home"), filepath.Join(base, "home", ".config", "pincer")
	for _, d := range []string{root, home, cfg} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root, home, cfg
}

func TestDiscoverPrecedence(t *testing.T) {
	root, home, cfg := layers(t)
	writeAgent(t, filepath.Join(root, ".claude/agents/reviewer.md"), "reviewer", "project reviewer")
	writeAgent(t, filepath.Join(home, ".claude/agents/reviewer.md"), "reviewer", "user reviewer")
	writeAgent(t, filepath.Join(home, ".claude/agents/tester.md"), "tester", "user tester")
	writeAgent(t, filepath.Join(cfg, "agents/tester.md"), "tester", "pincer-config tester")
	writeAgent(t, filepath.Join(cfg, "agents/docs.md"), "docs", "pincer-config docs")
	writeAgent(t, filepath.Join(root, ".claude/agents/explore.md"), "explore", "project explore")
	plug := filepath.Join(home, "data", "plugins", "kit")
	writeAgent(t, filepath.Join(plug, "agents/reviewer.md"), "reviewer", "plugin reviewer")

	d := DirsFor(root, home, cfg)
	d.Plugins = []Plugin{{Name: "kit", Root: plug, Files: []string{filepath.Join(plug, "agents/reviewer.md")}}}
	c := Discover(d)
	want := map[string]string{
		"reviewer": "project reviewer", "tester": "user tester", "docs": "pincer-config docs",
		"kit:reviewer": "plugin reviewer", "Explore": Builtins()[1].Description,
	}
	for name, desc := range want {
		got, ok := c.Lookup(name)
		if !ok || got.Description != desc {
			t.Errorf("Lookup(%q) = %q, %v; want %q", name, got.Description, ok, desc)
		}
	}
	if got, _ := c.Lookup("kit:reviewer"); got.Origin != PluginOrigin("kit") {
		t.Errorf("plugin origin %q", got.Origin)
	}
	if got, _ := c.Lookup("EXPLORE"); got.Origin != OriginBuiltin || !got.ReadOnly() {
		t.Errorf("a project file took Explore's name: %+v", got)
	}
	shadowed := 0
	for _, p := range c.Problems {
		if !p.Shadowed {
			t.Errorf("unexpected problem %v", p)
		}
		shadowed++
	}
	if shadowed != 3 { // user reviewer, config tester, project explore
		t.Errorf("%d shadowed, want 3: %v", shadowed, c.Problems)
	}
	var names []string
	for _, d := range c.Definitions() {
		names = append(names, d.Name)
	}
	if got := strings.Join(names, " "); got != "general-purpose Explore Plan reviewer tester docs kit:reviewer" {
		t.Errorf("order %q", got)
	}
}

// TestDiscoverFailsClosed: a project file that does not parse, that leads
// out of the workspace or into a hidden place, that is too large or not a
// plain file contributes nothing and is a Problem naming it.
func TestDiscoverFailsClosed(t *testing.T) {
	root, home, _ := layers(t)
	agents := filepath.Join(root, ".claude/agents")
	writeAgent(t, filepath.Join(agents, "good.md"), "good", "fine")
	must(t, os.WriteFile(filepath.Join(agents, "broken.md"), []byte("---\nname: broken\ndescription: d\ntools: {x: y}\n---\nbody\n"), 0o644))
	secret := filepath.Join(home, "outside.md")
	writeAgent(t, secret, "outside", "MARKER-outside")
	must(t, os.Symlink(secret, filepath.Join(agents, "linked.md")))
	must(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	writeAgent(t, filepath.Join(home, ".ssh", "k.md"), "k", "MARKER-ssh")
	must(t, os.Symlink(filepath.Join(home, ".ssh", "k.md"), filepath.Join(agents, "ssh.md")))
	must(t, os.WriteFile(filepath.Join(agents, "big.md"), []byte("---\nname: big\ndescription: d\n---\n"+strings.Repeat("x", MaxFileBytes)), 0o644))
	writeAgent(t, filepath.Join(agents, ".hidden.md"), "hidden", "MARKER-hidden")
	writeAgent(t, filepath.Join(agents, "sub", "deep.md"), "deep", "MARKER-deep")
	must(t, os.Symlink("/proc/self/environ", filepath.Join(agents, "environ.md")))

	c := Discover(DirsFor(root, home, ""))
	var names []string
	for _, d := range c.Definitions() {
		if d.Origin != OriginBuiltin {
			names = append(names, d.Name)
		}
		if strings.Contains(d.Description+d.Prompt, "MARKER") {
			t.Errorf("loaded %s from %s", d.Name, d.Path)
		}
	}
	if strings.Join(names, " ") != "good" {
		t.Errorf("loaded %q, want only good", names)
	}
	bad := map[string]bool{}
	for _, p := range c.Problems {
		bad[filepath.Base(p.File)] = true
		if !strings.Contains(p.Error(), p.File) && !strings.Contains(p.Error(), filepath.Base(p.File)) {
			t.Errorf("problem does not name its file: %v", p)
		}
	}
	for _, f := range []string{"broken.md", "linked.md", "ssh.md", "big.md", "environ.md"} {
		if !bad[f] {
			t.Errorf("%s is not a problem: %v", f, c.Problems)
		}
	}
	for _, p := range c.Problems {
		if filepath.Base(p.File) == "broken.md" && !strings.Contains(p.Error(), "broken.md:4") {
			t.Errorf("want FILE:LINE, got %v", p)
		}
	}
}

// TestDiscoverUserLinks: the user's files may lead anywhere but a hidden place.
func TestDiscoverUserLinks(t *testing.T) {
	root, home, _ := layers(t)
	elsewhere := filepath.Join(filepath.Dir(home), "dotfiles", "mine.md")
	writeAgent(t, elsewhere, "mine", "from dotfiles")
	must(t, os.MkdirAll(filepath.Join(home, ".claude/agents"), 0o755))
	must(t, os.Symlink(elsewhere, filepath.Join(home, ".claude/agents/mine.md")))
	c := Discover(DirsFor(root, home, ""))
	if _, ok := c.Lookup("mine"); !ok {
		t.Fatalf("the user's linked file is not loaded: %v", c.Problems)
	}
}

// TestDiscoverPluginStaysInside: a plugin's agent file leading out of its root is refused.
func TestDiscoverPluginStaysInside(t *testing.T) {
	root, home, _ := layers(t)
	plug := filepath.Join(home, "plug")
	writeAgent(t, filepath.Join(home, "out.md"), "out", "MARKER-out")
	must(t, os.MkdirAll(filepath.Join(plug, "agents"), 0o755))
	must(t, os.Symlink(filepath.Join(home, "out.md"), filepath.Join(plug, "agents", "out.md")))
	d := DirsFor(root, home, "")
	d.Plugins = []Plugin{{Name: "p", Root: plug, Files: []string{filepath.Join(plug, "agents", "out.md")}}}
	c := Discover(d)
	if _, ok := c.Lookup("p:out"); ok || len(c.Problems) != 1 {
		t.Fatalf("loaded a file outside the plugin: %v", c.Problems)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
