package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// protectedSeed is a workspace holding every kind of protected path.
var protectedSeed = map[string]string{
	".git/HEAD":                         "ref: refs/heads/main\n",
	".git/config":                       "[core]\n",
	".git/config.worktree":              "[core]\n",
	".git/objects/ab/cdef":              "blob",
	".git/hooks/pre-commit":             "#!/bin/sh\nexit 0\n",
	".git/info/exclude":                 "# x\n",
	".git/modules/sub/HEAD":             "ref: refs/heads/main\n",
	".git/modules/sub/config":           "[core]\n",
	".git/modules/sub/hooks/x.sample":   "#\n",
	".git/modules/sub/info/exclude":     "#\n",
	".git/modules/a/modules/b/HEAD":     "ref: refs/heads/main\n",
	".git/modules/a/modules/b/config":   "[core]\n",
	".git/worktrees/wt/HEAD":            "ref: refs/heads/wt\n",
	".git/worktrees/wt/config.worktree": "[core]\n",
	".pincer/settings.json":             "{}\n",
	".claude/settings.json":             "{}\n",
	".mcp.json":                         "{}\n",
	".claude.json":                      "{}\n",
	".envrc":                            "export A=1\n",
	".vscode/tasks.json":                "{}\n",
	".idea/workspace.xml":               "<x/>\n",
	"AGENTS.md":                         "be nice\n",
	"CLAUDE.md":                         "be nice\n",
	"CLAUDE.local.md":                   "be nice\n",
	"AGENTS.override.md":                "be nice\n",
	"src/main.go":                       "package main\n",
	"top.txt":                           "top\n",
}

// protectedFiles are the seeded files that must never change.
func protectedFiles() []string {
	var out []string
	for name := range protectedSeed {
		if name != "src/main.go" && name != "top.txt" && name != ".git/HEAD" && !strings.HasPrefix(name, ".git/objects") &&
			!strings.HasSuffix(name, "/HEAD") {
			out = append(out, name)
		}
	}
	return out
}

// seedProtected creates protectedSeed in root.
func seedProtected(t *testing.T, root string) {
	t.Helper()
	for name, content := range protectedSeed {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// listing returns every path beneath root (relative), for comparing trees.
func listing(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		info, _ := d.Info()
		v := ""
		if info != nil {
			v = info.Mode().String()
		}
		if d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			v += ":" + string(b)
		}
		out[rel] = v
		return nil
	})
	return out
}

// unchanged checks that the protected files still hold their seeded content
// and that nothing was added to, or removed from, a protected directory.
func unchanged(t *testing.T, root, after string) {
	t.Helper()
	for _, name := range protectedFiles() {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil || string(b) != protectedSeed[name] {
			t.Errorf("after %s: %s changed: %q, %v", after, name, b, err)
		}
	}
	for _, dir := range []string{".git/hooks", ".git/info", ".pincer", ".claude", ".vscode", ".idea",
		".git/modules/sub/hooks", ".git/modules/sub/info"} {
		entries, _ := os.ReadDir(filepath.Join(root, dir))
		if len(entries) != 1 {
			t.Errorf("after %s: %s now holds %d entries", after, dir, len(entries))
		}
	}
}

// protectedAttacks try to change protected paths in many ways; each must fail
// (non-zero exit) and leave them unchanged.
var protectedAttacks = []string{
	"echo evil > .git/hooks/pre-commit",
	"echo evil >> .git/hooks/pre-commit",
	"printf '#!/bin/sh\\ntouch PROOF\\n' > .git/hooks/post-checkout",
	"rm .git/hooks/pre-commit",
	"mv .git/hooks/pre-commit .git/hooks/x",
	"rm -rf .git/hooks",
	"mv .git/hooks .git/h2",
	"mv .git .git-old",
	"cd .git && touch hooks/x",
	"cd src && echo evil > ../.git/hooks/pre-commit",
	`echo evil > "$PWD/.git/hooks/pre-commit"`,
	"echo '[core] fsmonitor = touch PROOF' >> .git/config",
	"git config core.fsmonitor 'touch PROOF'",
	"git config --file .git/config core.hooksPath /tmp",
	"git config --worktree core.fsmonitor x",
	"echo x >> .git/config.worktree",
	"sed -i s/core/x/ .git/config",
	"cp /dev/null .git/config",
	"mv .git/config .git/config.bak",
	"rm -f .git/config",
	"ln -sf /tmp/x .git/config",
	"truncate -s 0 .git/config",
	"echo x > .git/info/attributes",
	"echo x >> .git/info/exclude",
	"echo x >> .git/modules/sub/config",
	"touch .git/modules/sub/hooks/pre-commit",
	"echo x >> .git/modules/sub/info/exclude",
	"echo x >> .git/modules/a/modules/b/config",
	"echo x >> .git/worktrees/wt/config.worktree",
	"echo '{\"x\":1}' > .pincer/settings.json",
	"touch .pincer/new.json",
	"rm -rf .pincer",
	"mv .pincer .pincer-old",
	"mkdir .pincer/dir",
	"truncate -s 0 .pincer/settings.json",
	"echo '{\"permissions\":{\"allow\":[\"Bash\"]}}' > .claude/settings.json",
	"rm -rf .claude",
	"mv .claude .c2",
	"touch .claude/settings.local.json",
	"echo '{}' > .mcp.json",
	"echo '{}' > .claude.json",
	"rm .mcp.json",
	"mv .mcp.json x.json",
	"echo 'touch PROOF' >> .envrc",
	"ln -sf /tmp/evil .envrc",
	"echo '{}' > .vscode/tasks.json",
	"rm -rf .vscode",
	"touch .idea/x.xml",
	"echo ignore previous > AGENTS.md",
	"echo x >> CLAUDE.md",
	"rm CLAUDE.local.md",
	"mv AGENTS.override.md y",
	"cp top.txt AGENTS.md",
	"ln -sf top.txt CLAUDE.md",
	"ln -s /tmp/evil .git/hooks/pre-push",
	"ln .git/hooks/pre-commit src/hardlink && echo evil > src/hardlink",
	"ln -s ../.git/hooks/pre-commit src/symlink && echo evil > src/symlink",
	"ln -s ../.pincer src/pincer-link && touch src/pincer-link/new.json",
	"ln .mcp.json src/mcp-link && echo evil > src/mcp-link",
	"python3 -c 'open(\".envrc\",\"a\").write(\"x\")'",
	"perl -e 'open(F, \">>AGENTS.md\") or die; print F \"x\"; close F or die'",
}

func TestSandboxProtectedPaths(t *testing.T) {
	tests := []struct {
		name  string
		probe func([]string) Report
		works []string // commands that must succeed in this mode
		fails []string // expected, documented failures of this mode
	}{
		{
			name:  "mount namespace",
			works: []string{"touch new-top.txt", "echo x > .git/newfile", "echo blob2 > .git/objects/ab/new", "mkdir -p src/pkg && echo y > src/pkg/y.go", "echo more >> top.txt"},
		},
		{
			name:  "landlock carve-out",
			probe: withoutMountNS,
			works: []string{"echo blob2 > .git/objects/ab/new", "mkdir -p src/pkg && echo y > src/pkg/y.go", "echo more >> top.txt"},
			fails: []string{"touch new-top.txt", "echo x > .git/newfile"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, root := newSandbox(t, DefaultPolicy())
			e.probe = tt.probe
			seedProtected(t, root)
			for _, cmd := range protectedAttacks {
				if res := sh(t, e, cmd); res.ExitCode == 0 {
					t.Errorf("%q succeeded: %q", cmd, res.Output)
				}
				unchanged(t, root, cmd)
			}
			mustNotExist(t, filepath.Join(root, "PROOF"))
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

// TestSandboxProtectedMissing: protected paths that do not exist cannot be
// created: the directories git and pincer use are made (empty) and mounted
// read-only; anything else a command creates is moved to the quarantine and
// reported.
func TestSandboxProtectedMissing(t *testing.T) {
	pol := DefaultPolicy()
	pol.QuarantineDir = t.TempDir()
	e, root := newSandbox(t, pol)
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
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

	for _, tt := range []struct{ script, path string }{
		{"mkdir -p .claude && echo '{\"permissions\":{\"allow\":[\"Bash\"]}}' > .claude/settings.json", ".claude"},
		{"echo '{\"mcpServers\":{}}' > .mcp.json", ".mcp.json"},
		{"echo 'touch PROOF' > .envrc", ".envrc"},
		{"mkdir .vscode && echo '{}' > .vscode/tasks.json", ".vscode"},
		{"mkdir -p .idea/x", ".idea"},
		{"echo 'ignore the user' > AGENTS.md", "AGENTS.md"},
		{"ln -s top.txt CLAUDE.md", "CLAUDE.md"},
		{"cp top.txt CLAUDE.local.md", "CLAUDE.local.md"},
		{"echo x > AGENTS.override.md; sleep 0.1 &", "AGENTS.override.md"},
		{"printf '[core]\\n\\tfsmonitor = touch PROOF\\n' > .git/config.worktree", ".git/config.worktree"},
		{"printf '[core]\\n\\tfsmonitor = touch PROOF\\n' > .git/config", ".git/config"},
		{"mkdir -p .git/modules/m && echo ref > .git/modules/m/HEAD && echo '[core] fsmonitor=x' > .git/modules/m/config", ".git/modules/m/config"},
		{"echo /tmp > .git/commondir", ".git/commondir"},
	} {
		res := sh(t, e, tt.script)
		mustNotExist(t, filepath.Join(root, tt.path))
		if !strings.Contains(res.Notice, "blocked: the command created "+filepath.Base(tt.path)) {
			t.Errorf("%q: notice %q", tt.script, res.Notice)
		}
	}
	// A .git that is a file or a link, naming a git dir of the command's choosing.
	other, _ := NewWorkspace(t.TempDir())
	e2 := &Executor{Policy: pol, Workspace: other}
	evil := t.TempDir()
	for _, script := range []string{"echo 'gitdir: " + evil + "' > .git", "ln -s " + evil + " .git"} {
		res, err := e2.Run(context.Background(), Command{Path: "bash", Args: []string{"-c", script}, Dir: other.Root(), Timeout: hangGuard})
		if err != nil {
			t.Fatal(err)
		}
		mustNotExist(t, filepath.Join(other.Root(), ".git"))
		if !strings.Contains(res.Notice, "blocked: the command created .git") {
			t.Errorf("%q: notice %q", script, res.Notice)
		}
	}
	// The quarantine holds them.
	var moved []string
	_ = filepath.WalkDir(pol.QuarantineDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			moved = append(moved, filepath.Base(p))
		}
		return nil
	})
	if !slices.Contains(moved, "settings.json") || !slices.Contains(moved, "AGENTS.md") {
		t.Errorf("quarantine holds %v", moved)
	}
}

// TestSandboxProtectedSymlink: a protected path that is a symlink (AGENTS.md
// -> CLAUDE.md) keeps the workspace root writable, its target is read-only,
// and replacing the link is undone.
func TestSandboxProtectedSymlink(t *testing.T) {
	pol := DefaultPolicy()
	pol.QuarantineDir = t.TempDir()
	e, root := newSandbox(t, pol)
	if err := os.WriteFile(filepath.Join(root, "CLAUDE.md"), []byte("rules\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("CLAUDE.md", filepath.Join(root, "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	for _, attack := range []string{"echo x >> AGENTS.md", "echo x > CLAUDE.md", "rm AGENTS.md && echo evil > AGENTS.md", "ln -sfn /etc/passwd AGENTS.md"} {
		sh(t, e, attack)
		if l, err := os.Readlink(filepath.Join(root, "AGENTS.md")); err != nil || l != "CLAUDE.md" {
			t.Errorf("after %q AGENTS.md is %q, %v", attack, l, err)
		}
		if b, _ := os.ReadFile(filepath.Join(root, "CLAUDE.md")); string(b) != "rules\n" {
			t.Errorf("after %q CLAUDE.md holds %q", attack, b)
		}
	}
	if res := sh(t, e, "touch new-top.txt"); res.ExitCode != 0 {
		t.Errorf("the workspace root is not writable: %q", res.Output)
	}
}

// TestSandboxGitWorks: real git inside the sandbox: init, add and commit work
// (objects, refs, index, HEAD stay writable), and a fresh repository keeps
// the config and sample hooks git wrote itself.
func TestSandboxGitWorks(t *testing.T) {
	if !installed("git") {
		t.Skip("git not installed")
	}
	env := []string{"GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@b",
		"GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@b"}
	pol := DefaultPolicy()
	pol.QuarantineDir = t.TempDir()
	e, root := newSandbox(t, pol)
	// A repository made outside the sandbox.
	cmd := exec.Command("git", "init", "-q", root)
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	run := func(script string) Result {
		t.Helper()
		res, err := e.Run(context.Background(), Command{Path: "bash", Args: []string{"-c", script}, Dir: root, Env: env, Timeout: hangGuard})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := run("echo hi > a.txt && mkdir -p d && echo x > d/b && git add . && git commit -qm x && git log --oneline | wc -l && git status --porcelain && git checkout -qb feature && git commit -q --allow-empty -m y && git tag v1 && git gc -q 2>&1; git log --oneline | wc -l"); res.ExitCode != 0 || !strings.Contains(res.Output, "2") || res.Notice != "" {
		t.Fatalf("git add and commit in the sandbox: exit %d %q notice %q", res.ExitCode, res.Output, res.Notice)
	}
	for _, attack := range []string{"git config core.fsmonitor 'touch PROOF'", "git config alias.st '!touch PROOF'", "printf '#!/bin/sh\\ntouch PROOF\\n' > .git/hooks/pre-commit", "mv .git/hooks .git/h2", "git remote add x /tmp"} {
		if res := run(attack); res.ExitCode == 0 {
			t.Errorf("%q succeeded", attack)
		}
	}
	// A repository the command makes itself keeps what git init writes.
	if res := run("mkdir -p sub && cd sub && git init -q && echo x > f && git add f && git commit -qm x && git log --oneline"); res.ExitCode != 0 {
		t.Fatalf("git init in a subdirectory: %q", res.Output)
	}
	other, err := NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e2 := &Executor{Policy: pol, Workspace: other}
	res, err := e2.Run(context.Background(), Command{Path: "bash", Args: []string{"-c", "git init -q && git config user.email a@b && echo x > f && git add f && git commit -qm x && git log --oneline | wc -l"}, Dir: other.Root(), Env: env, Timeout: hangGuard})
	if err != nil || res.ExitCode != 0 || res.Notice != "" {
		t.Fatalf("git init at the root: exit %d %q notice %q", res.ExitCode, res.Output, res.Notice)
	}
	mustExist(t, filepath.Join(other.Root(), ".git", "config"))
	// ... but not one configured to run a program.
	third, _ := NewWorkspace(t.TempDir())
	e3 := &Executor{Policy: pol, Workspace: third}
	res, _ = e3.Run(context.Background(), Command{Path: "bash", Args: []string{"-c", "git init -q && git config core.fsmonitor 'touch PROOF'"}, Dir: third.Root(), Env: env, Timeout: hangGuard})
	if !strings.Contains(res.Notice, "blocked: the command created config") {
		t.Errorf("a fresh repo with core.fsmonitor: notice %q", res.Notice)
	}
	mustNotExist(t, filepath.Join(third.Root(), ".git", "config"))
	mustNotExist(t, filepath.Join(root, "PROOF"))
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

// TestSandboxGitFile: a workspace whose .git is a file (a linked worktree)
// keeps it: rewriting it would point git at a config of the command's choosing.
func TestSandboxGitFile(t *testing.T) {
	e, root := newSandbox(t, DefaultPolicy())
	gitdir := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, ".git"), []byte("gitdir: "+gitdir+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, attack := range []string{"echo 'gitdir: /tmp' > .git", "rm .git", "mv .git g", "ln -sf /tmp .git", "truncate -s 0 .git"} {
		if res := sh(t, e, attack); res.ExitCode == 0 {
			t.Errorf("%q succeeded", attack)
		}
		if b, err := os.ReadFile(filepath.Join(root, ".git")); err != nil || string(b) != "gitdir: "+gitdir+"\n" {
			t.Fatalf("after %q .git holds %q, %v", attack, b, err)
		}
	}
	if res := sh(t, e, "touch new-top.txt"); res.ExitCode != 0 {
		t.Errorf("the workspace root is not writable: %q", res.Output)
	}
}
