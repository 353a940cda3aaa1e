package permission

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pincer/sandbox"
)

func TestProtected(t *testing.T) {
	roots := []string{"/w", "/extra"}
	yes := []string{
		"/w/.git", "/w/.git/config", "/w/.git/config.worktree", "/w/.git/hooks", "/w/.git/hooks/pre-commit",
		"/w/.git/info/exclude", "/w/.git/modules", "/w/.git/modules/lib/config", "/w/.git/modules/a/b/hooks/x",
		"/w/.git/modules/lib/info/attributes", "/w/.git/modules/a/modules/b/config", "/w/.git/worktrees/wt/config.worktree",
		"/w/.git/worktrees/wt/commondir", "/w/.git/worktrees/wt/gitdir", "/w/.git/commondir", "/w/.git/modules/m/commondir", "/w/sub/.git/config", "/w/sub/.git/hooks/x",
		"/w/.pincer", "/w/.pincer/config.toml", "/w/.pincer/settings.local.toml", "/w/.claude/settings.json",
		"/w/.mcp.json", "/w/.claude.json", "/w/.envrc", "/w/sub/.envrc", "/w/.vscode/tasks.json", "/w/.idea/x.xml", "/w/AGENTS.md",
		"/w/docs/AGENTS.md", "/w/CLAUDE.md", "/w/CLAUDE.local.md", "/w/AGENTS.override.md", "/w/.GIT/CONFIG",
		"/w/Agents.md", "/w/a/../.envrc", "/extra/.git/config", "/tmp/repo/.git/hooks/x", "/w/.Pincer/x",
		// the hook managers' names under .config/ and per environment (round 19)
		"/w/.config/lefthook.yml", "/w/.config/lefthook-local.jsonc", "/w/lefthook-local.yml", "/w/.lefthook-local.toml",
		"/w/.lefthook-local/pre-commit", "/w/lefthook.jsonc", "/w/.config/mise.toml", "/w/.config/mise.ci.toml",
		"/w/.config/mise/config.toml", "/w/.config/mise/conf.d/a.toml", "/w/mise.staging.toml", "/w/.mise.ci.local.toml",
		"/w/mise/config.toml", "/w/mise/config.dev.toml", "/w/sub/.config/mise",
		// git's alternates (red team r19 H3)
		"/w/.git/objects/info/alternates", "/w/.git/objects/info/http-alternates", "/w/sub/.git/objects/info/alternates",
	}
	no := []string{
		"/w", "/w/a.go", "/w/.git/objects/ab/cd", "/w/.git/refs/heads/main", "/w/.git/index", "/w/.git/HEAD",
		"/w/.git/logs/HEAD", "/w/.git/COMMIT_EDITMSG", "/w/.gitignore", "/w/.github/workflows/ci.yml", "/w/agents.go",
		"/w/AGENTS.md.bak", "/w/docs/CLAUDE.txt", "/w/.git/configx", "/w/.git/worktrees/wt/HEAD", "/w/.envrc.example",
		"/w/.git/modules/lib/objects/x", "relative/.git/config", "",
		"/w/.config/other.toml", "/w/.config/lefthookish.yml", "/w/mise.toml.bak", "/w/mise..toml", "/w/mise/tasks/build",
		"/w/mise/config.toml/x", "/w/lefthook-notes.md", "/w/.git/objects/info/packs", "/w/.git/objects/info/commit-graph",
	}
	for _, p := range yes {
		if why, ok := Protected(p, roots); !ok || why == "" {
			t.Errorf("Protected(%q) = %q, %v; want protected", p, why, ok)
		}
	}
	for _, p := range no {
		if why, ok := Protected(p, roots); ok {
			t.Errorf("Protected(%q) = %q; want not protected", p, why)
		}
	}
	// A workspace below a protected-looking directory is matched from its root.
	if _, ok := Protected("/home/u/.claude/proj/a.go", []string{"/home/u/.claude/proj"}); ok {
		t.Error("a workspace inside .claude is protected as a whole")
	}
	if _, ok := Protected("/home/u/.claude/proj/.claude/x", []string{"/home/u/.claude/proj"}); !ok {
		t.Error("the workspace's own .claude is not protected")
	}
	for _, c := range []struct{ path, want string }{
		{"/w/.git/hooks/x", "git"}, {"/w/.pincer/config.toml", "pincer"}, {"/w/AGENTS.md", "instructions"},
		{"/w/.claude/settings.json", "Claude Code"}, {"/w/.envrc", "direnv"},
	} {
		if why, _ := Protected(c.path, roots); !strings.Contains(why, c.want) {
			t.Errorf("Protected(%q) says %q, want it to mention %q", c.path, why, c.want)
		}
	}
}

// TestProtectedAgreesWithSandbox: what the sandbox mounts read-only
// (sandbox.ProtectedInWorkspace) is protected here, and every entry of
// ProtectedPaths is in the sandbox's list, except the ones only the permission
// engine can guard (permissionOnly).
func TestProtectedAgreesWithSandbox(t *testing.T) {
	// examples turns a sandbox pattern into concrete paths below /w.
	examples := func(pat string) []string {
		var out []string
		for _, p := range []string{pat} {
			p = strings.ReplaceAll(p, "**", "a/b")
			p = strings.ReplaceAll(p, "config*", "config")
			p = strings.ReplaceAll(p, "*", "wt")
			if strings.HasSuffix(p, "/") {
				out = append(out, "/w/"+strings.TrimSuffix(p, "/"), "/w/"+p+"x")
			} else {
				out = append(out, "/w/"+p)
			}
		}
		if strings.HasSuffix(pat, "config*") {
			out = append(out, "/w/"+strings.ReplaceAll(strings.ReplaceAll(strings.TrimSuffix(pat, "config*"), "**", "a"), "*", "wt")+"config.worktree")
		}
		return out
	}
	for _, pat := range sandbox.ProtectedInWorkspace {
		for _, p := range examples(pat) {
			if _, ok := Protected(p, []string{"/w"}); !ok {
				t.Errorf("the sandbox protects %s (%s); permission.Protected does not", p, pat)
			}
		}
	}
	// Entries the sandbox cannot mount read-only: the .git directory entry itself
	// (objects and refs below it must stay writable), the whole modules
	// directory entry, a linked worktree's commondir and gitdir files (which
	// git finds through the worktree's .git file), and the any-depth instruction
	// files and nested repositories (a mount covers what exists when the
	// command starts; the permission engine sees every path a command names).
	// A submodule's config.worktree is mounted by the sandbox only as far as
	// its list says; the engine asks for it either way.
	permissionOnly := map[string]bool{"**/.git": true, "**/.git/modules": true, "**/.git/modules/**/config.worktree": true,
		"**/.git/worktrees/*/commondir": true, "**/.git/worktrees/*/gitdir": true,
		// the sandbox mounts these through its own list of git's config redirects
		"**/.git/commondir": true, "**/.git/modules/**/commondir": true}
	sb := map[string]bool{}
	for _, p := range sandbox.ProtectedInWorkspace {
		sb[strings.TrimSuffix(p, "/")] = true
		if base, ok := strings.CutSuffix(p, "config*"); ok {
			sb[base+"config"], sb[base+"config.worktree"] = true, true
		}
	}
	for _, p := range ProtectedPaths {
		if permissionOnly[p] {
			continue
		}
		rel := strings.TrimSuffix(strings.TrimPrefix(p, "**/"), "/")
		if !sb[rel] {
			t.Errorf("ProtectedPaths has %s; sandbox.ProtectedInWorkspace has no %s", p, rel)
		}
	}
	// And every ProtectedPaths entry is what Protected says.
	for _, p := range ProtectedPaths {
		ex := "/w/" + strings.ReplaceAll(strings.ReplaceAll(strings.TrimPrefix(p, "**/"), "**", "a"), "*", "wt")
		if _, ok := Protected(filepath.Clean(ex), []string{"/w"}); !ok {
			t.Errorf("ProtectedPaths has %s but Protected(%s) is false", p, ex)
		}
	}
	if !slices.Contains(ProtectedPaths, "**/AGENTS.md") {
		t.Error("instruction files missing")
	}
}
