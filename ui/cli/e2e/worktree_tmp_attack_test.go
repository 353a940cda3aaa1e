package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

// TestAttackWorktreeRepoUnderTemp is the red team's F1: the main repository
// under the temp dir (a writable tree), a worktree session — a subagent with
// isolation "worktree", and `pincer run --worktree` — in bypassPermissions
// writes a script and runs it through Bash: core.hooksPath, .git/HEAD, a
// hook, the index, a new .git/worktrees entry, a main checkout file, by
// absolute and relative paths and through symlinks planted in the worktree.
// The main repository is sealed: nothing lands (marker payloads) and git
// still works there.
func TestAttackWorktreeRepoUnderTemp(t *testing.T) {
	for _, how := range []string{"subagent", "flag"} {
		t.Run(how, func(t *testing.T) {
			e := newEnv(t)
			git := filepath.Join(e.repo, ".git")
			// The worktree is HOME/data/worktrees/PROJECT/NAME: from there the
			// repository is this far up.
			rel, err := filepath.Rel(filepath.Join(e.home, "data", "worktrees", "p", "n"), e.repo)
			if err != nil {
				t.Fatal(err)
			}
			r := strings.NewReplacer("{R}", e.repo, "{G}", git, "{REL}", rel, "{T}", filepath.Dir(e.repo))
			script := r.Replace(strings.Join([]string{
				"mkdir -p {T}/hk; printf '#!/bin/sh\\ntouch {R}/PROOF-F1\\n' > {T}/hk/post-checkout; chmod +x {T}/hk/post-checkout",
				"git config core.hooksPath {T}/hk",
				"echo 'ref: refs/heads/nowhere' > {REL}/.git/HEAD",
				"printf '#!/bin/sh\\ntouch {R}/PROOF-F1\\n' > {G}/hooks/post-commit",
				"echo junk > {G}/index",
				"mkdir -p {G}/worktrees/evil && echo x > {G}/worktrees/evil/HEAD",
				"echo PWNED > {REL}/hello.txt",
				"echo PWNED > {R}/PROOF-F1",
				"ln -s {G} gd; echo '[core]' >> gd/config; echo x > gd/hooks/pre-commit",
				"ln -s {R} rp; echo PWNED > rp/hello.txt",
				"mv {R} {R}-moved && mkdir -p {R}/.git",
				"true",
			}, "\n")) + "\n"
			wargs, _ := json.Marshal(map[string]string{"file_path": "x.sh", "content": script})
			attack := []openaitest.Reply{
				{When: "CHILDWORD", ToolCalls: []openaitest.Call{{ID: "w1", Name: "Write", Args: string(wargs)}, {ID: "c1", Name: "Bash", Args: `{"command":"sh x.sh 2>&1; git -C . status --short >/dev/null 2>&1; echo ran"}`}}},
				{When: "CHILDWORD", Text: "child done"},
			}
			before := map[string]string{}
			for _, p := range []string{filepath.Join(git, "config"), filepath.Join(git, "HEAD"), filepath.Join(git, "index"), filepath.Join(e.repo, "hello.txt")} {
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				before[p] = string(b)
			}
			var args []string
			if how == "subagent" {
				e.fake.Push(openaitest.Reply{When: "PARENTWORD", ToolCalls: []openaitest.Call{agentCall("p1", "general-purpose", "iso", "CHILDWORD go", `,"isolation":"worktree"`)}})
				e.fake.Push(attack...)
				e.fake.Push(openaitest.Reply{When: "PARENTWORD", Text: "parent done"})
				args = e.runArgs("--permission-mode", "bypassPermissions", "PARENTWORD")
			} else {
				e.fake.Push(attack...)
				args = e.runArgs("--worktree", "w1", "--permission-mode", "bypassPermissions", "CHILDWORD")
			}
			_, stderr, code := e.run(args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for p, b := range before {
				if got, _ := os.ReadFile(p); string(got) != b {
					t.Errorf("%s changed: %q", p, got)
				}
			}
			for _, p := range []string{filepath.Join(e.repo, "PROOF-F1"), filepath.Join(git, "hooks", "post-commit"),
				filepath.Join(git, "hooks", "pre-commit"), filepath.Join(git, "worktrees", "evil"), e.repo + "-moved"} {
				if _, err := os.Lstat(p); err == nil {
					t.Errorf("%s was created", p)
				}
			}
			if got := wtGit(t, e.repo, "config", "--local", "--list"); strings.Contains(got, "hookspath") {
				t.Errorf("the main repository's config: %s", got)
			}
			wtGit(t, e.repo, "status", "--short")
		})
	}
}
