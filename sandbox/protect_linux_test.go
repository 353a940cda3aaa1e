package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// withoutMountNS pretends the machine has no mount namespaces, which forces
// the Landlock-only carve-out.
func withoutMountNS(helper []string) Report {
	r := probeWith(helper)
	r.MountNamespace, r.MountNamespaceError = false, "disabled by the test"
	return r
}

// seedProtected creates a git-like layout with a hook and pincer settings.
func seedProtected(t *testing.T, root string) {
	t.Helper()
	for name, content := range map[string]string{
		".git/HEAD":             "ref: refs/heads/main\n",
		".git/config":           "[core]\n",
		".git/objects/ab/cdef":  "blob",
		".git/hooks/pre-commit": "#!/bin/sh\nexit 0\n",
		".pincer/settings.json": "{}\n",
		"src/main.go":           "package main\n",
		"top.txt":               "top\n",
	} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// unchanged checks that the protected files still hold their seeded content
// and nothing was added next to them.
func unchanged(t *testing.T, root string) {
	t.Helper()
	for name, content := range map[string]string{
		".git/hooks/pre-commit": "#!/bin/sh\nexit 0\n",
		".pincer/settings.json": "{}\n",
	} {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil || string(b) != content {
			t.Errorf("%s changed: %q, %v", name, b, err)
		}
	}
	for _, dir := range []string{".git/hooks", ".pincer"} {
		entries, _ := os.ReadDir(filepath.Join(root, dir))
		if len(entries) != 1 {
			t.Errorf("%s now holds %d entries", dir, len(entries))
		}
	}
}

func TestSandboxProtectedPaths(t *testing.T) {
	attacks := []string{
		"echo evil > .git/hooks/pre-commit",
		"echo evil >> .git/hooks/pre-commit",
		"touch .git/hooks/post-checkout",
		"rm .git/hooks/pre-commit",
		"mv .git/hooks/pre-commit .git/hooks/x",
		"rm -rf .git/hooks",
		"mv .git/hooks .git/hooks-old",
		"mv .git .git-old",
		"cd .git && touch hooks/x",
		"cd src && echo evil > ../.git/hooks/pre-commit",
		`echo evil > "$PWD/.git/hooks/pre-commit"`,
		"echo '{\"x\":1}' > .pincer/settings.json",
		"touch .pincer/new.json",
		"rm -rf .pincer",
		"mv .pincer .pincer-old",
		"mkdir .pincer/dir",
		"truncate -s 0 .pincer/settings.json",
		"ln -s /tmp/evil .git/hooks/pre-push",
		"ln .git/hooks/pre-commit src/hardlink && echo evil > src/hardlink",
		"ln -s ../.git/hooks/pre-commit src/symlink && echo evil > src/symlink",
		"ln -s ../.pincer src/pincer-link && touch src/pincer-link/new.json",
	}
	tests := []struct {
		name  string
		probe func([]string) Report
		works []string // commands that must succeed in this mode
		fails []string // expected, documented failures of this mode
	}{
		{
			name:  "mount namespace",
			works: []string{"touch new-top.txt", "echo x > .git/newfile", "echo '[x]' >> .git/config", "mkdir -p src/pkg && echo y > src/pkg/y.go", "echo more >> top.txt"},
		},
		{
			name:  "landlock carve-out",
			probe: withoutMountNS,
			works: []string{"echo '[x]' >> .git/config", "echo blob2 > .git/objects/ab/new", "mkdir -p src/pkg && echo y > src/pkg/y.go", "echo more >> top.txt"},
			fails: []string{"touch new-top.txt", "echo x > .git/newfile"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, root := newSandbox(t, DefaultPolicy())
			e.probe = tt.probe
			seedProtected(t, root)
			for _, cmd := range attacks {
				if res := sh(t, e, cmd); res.ExitCode == 0 {
					t.Errorf("%q succeeded: %q", cmd, res.Output)
				}
			}
			unchanged(t, root)
			for _, cmd := range tt.works {
				if res := sh(t, e, cmd); res.ExitCode != 0 {
					t.Errorf("%q failed: exit %d %q", cmd, res.ExitCode, res.Output)
				}
			}
			for _, cmd := range tt.fails {
				if res := sh(t, e, cmd); res.ExitCode == 0 {
					t.Errorf("%q succeeded; this mode documents it as failing", cmd)
				}
			}
		})
	}
}

// TestSandboxProtectedMissing: in a workspace without .pincer, the directory
// is created (empty) so that it can be protected, and the root stays writable.
func TestSandboxProtectedMissing(t *testing.T) {
	e, root := newSandbox(t, DefaultPolicy())
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	res := sh(t, e, "touch top.txt && (touch .pincer/settings.json || mkdir -p .pincer/x || echo blocked) && (touch .git/hooks/pre-commit || echo blocked)")
	if res.ExitCode != 0 || strings.Count(res.Output, "blocked") != 2 {
		t.Fatalf("exit %d %q", res.ExitCode, res.Output)
	}
	for _, dir := range []string{".pincer", ".git/hooks"} {
		entries, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil || len(entries) != 0 {
			t.Errorf("%s: %v, %d entries", dir, err, len(entries))
		}
	}
	mustExist(t, filepath.Join(root, "top.txt"))
}

// TestSandboxNothingProtected: an empty, non-nil ReadOnlyInWorkspace opens the
// whole workspace.
func TestSandboxNothingProtected(t *testing.T) {
	pol := DefaultPolicy()
	pol.ReadOnlyInWorkspace = []string{}
	e, root := newSandbox(t, pol)
	e.probe = withoutMountNS
	seedProtected(t, root)
	if res := sh(t, e, "echo changed > .pincer/settings.json && touch new-top.txt"); res.ExitCode != 0 {
		t.Fatalf("exit %d %q", res.ExitCode, res.Output)
	}
}

func TestSandboxDegraded(t *testing.T) {
	noLandlock := func(helper []string) Report {
		r := probeWith(helper)
		r.LandlockABI, r.LandlockError = 0, "disabled by the test"
		return r
	}
	pol := DefaultPolicy()
	pol.RequireLandlock = true
	e, _ := newSandbox(t, pol)
	e.probe = noLandlock
	if _, err := e.Run(context.Background(), Command{Path: "true"}); err == nil || !strings.Contains(err.Error(), "requires Landlock") {
		t.Fatalf("RequireLandlock without Landlock: err = %v", err)
	}
	if _, err := e.Report(); err == nil {
		t.Fatal("Report should fail too")
	}

	announcedMu.Lock()
	clear(announced) // a previous run (-count) announced it already
	announcedMu.Unlock()
	pol.RequireLandlock = false
	e, _ = newSandbox(t, pol)
	e.probe = noLandlock
	r, err := e.Report()
	if err != nil || len(r.Degraded) == 0 || !strings.Contains(r.String(), "degraded: Landlock unavailable (disabled by the test)") {
		t.Fatalf("report: %v\n%s", err, r)
	}
	first := sh(t, e, "true")
	second := sh(t, e, "true")
	if !strings.Contains(first.Notice, "Landlock unavailable") || second.Notice != "" {
		t.Fatalf("notices: first %q, second %q (want one, once)", first.Notice, second.Notice)
	}
}
