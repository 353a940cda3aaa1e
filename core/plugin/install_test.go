package plugin

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/config"
)

// testPaths are config paths under a fresh PINCER_HOME.
func testPaths(t *testing.T) config.Paths {
	t.Helper()
	return testPathsAt(t.TempDir())
}

// testPathsAt are config paths with PINCER_HOME and HOME at home.
func testPathsAt(home string) config.Paths {
	return config.PathsFrom(func(k string) string {
		switch k {
		case "PINCER_HOME":
			return home
		case "HOME":
			return home
		}
		return ""
	})
}

var samplePlugin = map[string]string{
	".claude-plugin/plugin.json": `{"name": "sample", "version": "0.3.0"}`,
	"commands/hi.md":             "say hi to $ARGUMENTS\n",
	"hooks/hooks.json":           hooksJSON,
	"fmt.sh":                     "#!/bin/sh\n",
}

func TestInstallLocalEnableDisableRemove(t *testing.T) {
	paths := testPaths(t)
	src := filepath.Join(t.TempDir(), "src")
	writeTree(t, src, samplePlugin)
	if err := os.Symlink("commands/hi.md", filepath.Join(src, "alias.md")); err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	p, err := Install(context.Background(), paths, src, ScopeUser, ws)
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := Dir(paths)
	if p.Root != filepath.Join(dir, "sample") || len(p.Errors) > 0 || len(p.Hooks) != 1 {
		t.Fatalf("installed: %+v %q", p, errText(p))
	}
	if got := p.Hooks[0].Hooks[0].Command; got != filepath.Join(dir, "sample", "fmt.sh") {
		t.Errorf("hook command %q: the root is the installed copy", got)
	}
	if target, err := os.Readlink(filepath.Join(dir, "sample", "alias.md")); err != nil || target != "commands/hi.md" {
		t.Errorf("a link inside the plugin is copied as a link: %q %v", target, err)
	}
	list, err := List(paths, ws)
	if err != nil || len(list) != 1 || !list[0].Enabled || list[0].By != ScopeUser || list[0].Source.From != src {
		t.Fatalf("list: %+v %v", list, err)
	}
	if _, err := Install(context.Background(), paths, src, ScopeUser, ws); err == nil || !strings.Contains(err.Error(), "already installed") {
		t.Errorf("a second install: %v", err)
	}
	// The project's choice beats the user's there, and only there.
	if err := SetEnabled(paths, "sample", ScopeProject, ws, false); err != nil {
		t.Fatal(err)
	}
	if en, _ := Enabled(paths, ws); len(en) != 0 {
		t.Errorf("disabled for the project, still enabled: %v", en)
	}
	if en, _ := Enabled(paths, t.TempDir()); len(en) != 1 {
		t.Errorf("another project lost the user's choice: %v", en)
	}
	if err := SetEnabled(paths, "nope", ScopeUser, ws, true); err == nil {
		t.Error("enabling a plugin that is not installed")
	}
	if err := Remove(paths, "sample"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "sample")); !os.IsNotExist(err) {
		t.Errorf("removed plugin still there: %v", err)
	}
	st, _ := ReadState(paths)
	if len(st.Installed)+len(st.User)+len(st.Projects[ProjectKey(ws)]) != 0 {
		t.Errorf("state after remove: %+v", st)
	}
}

// gitRepo makes a git repository of files and returns its file:// URL.
func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := filepath.Join(t.TempDir(), "repo")
	writeTree(t, repo, files)
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "plugin"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	return "file://" + repo
}

func TestInstallGit(t *testing.T) {
	paths := testPaths(t)
	url := gitRepo(t, samplePlugin)
	ws := t.TempDir()
	p, err := Install(context.Background(), paths, url, ScopeProject, ws)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "sample" || len(p.CommandPaths) != 1 {
		t.Fatalf("cloned: %+v", p)
	}
	if _, err := os.Stat(filepath.Join(p.Root, "commands", "hi.md")); err != nil {
		t.Fatal(err)
	}
	list, _ := List(paths, ws)
	if len(list) != 1 || !list[0].Enabled || list[0].By != ScopeProject || !list[0].Source.Git || list[0].Source.From != url {
		t.Fatalf("list: %+v", list)
	}
	if list, _ := List(paths, t.TempDir()); list[0].Enabled {
		t.Error("enabled for one project, enabled in another")
	}
}

// Attack: git URLs that would make git run a program, or read an option.
func TestInstallGitURLAttacks(t *testing.T) {
	paths := testPaths(t)
	proof := filepath.Join(t.TempDir(), "PROOF")
	for _, url := range []string{
		"--upload-pack=touch " + proof,
		"--upload-pack=touch%20" + proof + "::x",
		"ext::sh -c touch% " + proof,
		"ext::sh -c 'touch " + proof + "'",
		"-c core.sshCommand=touch " + proof,
		"ssh://-oProxyCommand=touch%20" + proof + "/x",
		"fd::0",
	} {
		if _, err := Install(context.Background(), paths, url, ScopeUser, ""); err == nil {
			t.Errorf("Install(%q) succeeded", url)
		}
		if _, err := os.Stat(proof); err == nil {
			t.Fatalf("Install(%q) ran a program", url)
		}
	}
	dir, _ := Dir(paths)
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("refused installs left %v", entries)
	}
}

// Attack: a plugin whose files link out of it is not installed (a skill
// "beside" its SKILL.md must not be the user's key), by copy or by clone.
func TestInstallLinkOut(t *testing.T) {
	paths := testPaths(t)
	secret := filepath.Join(t.TempDir(), "id_rsa")
	os.WriteFile(secret, []byte("KEY"), 0o600)
	src := filepath.Join(t.TempDir(), "src")
	writeTree(t, src, samplePlugin)
	os.MkdirAll(filepath.Join(src, "skills", "s"), 0o755)
	os.Symlink(secret, filepath.Join(src, "skills", "s", "key"))
	if _, err := Install(context.Background(), paths, src, ScopeUser, ""); err == nil || !strings.Contains(err.Error(), "outside the plugin") &&
		!strings.Contains(err.Error(), "absolute") {
		t.Errorf("a link out copied: %v", err)
	}
	os.Remove(filepath.Join(src, "skills", "s", "key"))
	os.Symlink("../../../../../../../../.."+secret, filepath.Join(src, "skills", "s", "key"))
	if _, err := Install(context.Background(), paths, src, ScopeUser, ""); err == nil || !strings.Contains(err.Error(), "outside the plugin") {
		t.Errorf("a relative link out copied: %v", err)
	}
	if _, err := exec.LookPath("git"); err == nil {
		url := gitRepo(t, samplePlugin)
		repo := strings.TrimPrefix(url, "file://")
		os.Symlink(secret, filepath.Join(repo, "key"))
		for _, args := range [][]string{{"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "link"}} {
			cmd := exec.Command("git", args...)
			cmd.Dir = repo
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%v %s", err, out)
			}
		}
		if _, err := Install(context.Background(), paths, url, ScopeUser, ""); err == nil {
			t.Error("a cloned link out installed")
		}
	}
	dir, _ := Dir(paths)
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("refused installs left %v", entries)
	}
}

// Attack: names that escape the plugins directory, and a symbolic link put in
// it in place of a plugin.
func TestPluginDirAttacks(t *testing.T) {
	paths := testPaths(t)
	dir, _ := Dir(paths)
	os.MkdirAll(dir, 0o700)
	victim := filepath.Join(t.TempDir(), "victim")
	writeTree(t, victim, map[string]string{"plugin.json": `{"name": "victim"}`, "keep": "x"})
	for _, name := range []string{"../victim", "..", "a/../../b", "/etc"} {
		if err := Remove(paths, name); err == nil {
			t.Errorf("Remove(%q) accepted", name)
		}
		if err := SetEnabled(paths, name, ScopeUser, "", true); err == nil {
			t.Errorf("SetEnabled(%q) accepted", name)
		}
	}
	// A symlinked plugin directory is listed with an error and never loaded.
	if err := os.Symlink(victim, filepath.Join(dir, "victim")); err != nil {
		t.Fatal(err)
	}
	if err := SetEnabled(paths, "victim", ScopeUser, "", true); err == nil {
		t.Error("enabled a symlinked plugin directory")
	}
	editState(paths, func(s *State) error { s.User["victim"] = true; return nil })
	en, _ := Enabled(paths, "")
	if len(en) != 1 || len(en[0].Errors) == 0 || len(en[0].Hooks)+len(en[0].CommandPaths) != 0 {
		t.Fatalf("a symlinked plugin dir: %+v", en)
	}
	if err := Remove(paths, "victim"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(victim, "keep")); err != nil {
		t.Errorf("Remove followed the link: %v", err)
	}
	// A directory whose manifest names another plugin.
	writeTree(t, filepath.Join(dir, "one"), map[string]string{"plugin.json": `{"name": "two"}`})
	list, _ := List(paths, "")
	if len(list) != 1 || !strings.Contains(errText(list[0].Plugin), `names plugin "two"`) {
		t.Errorf("list: %+v", list)
	}
}

// A state file that does not parse enables nothing and is not overwritten.
func TestStateFailsClosed(t *testing.T) {
	paths := testPaths(t)
	src := filepath.Join(t.TempDir(), "src")
	writeTree(t, src, samplePlugin)
	if _, err := Install(context.Background(), paths, src, ScopeUser, ""); err != nil {
		t.Fatal(err)
	}
	sp, _ := StatePath(paths)
	os.WriteFile(sp, []byte("{\n  \"user\": {\"sample\": tru}\n}"), 0o600)
	en, err := Enabled(paths, "")
	if len(en) != 0 || err == nil || !strings.Contains(err.Error(), "plugins.json:2") {
		t.Errorf("a broken state: %v %v", en, err)
	}
	if err := SetEnabled(paths, "sample", ScopeUser, "", false); err == nil {
		t.Error("a broken state was overwritten")
	}
}
