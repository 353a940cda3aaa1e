package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

// TestAttackWorktreeMergeProtected (attack: protected files reaching the
// main checkout through a merge, the red team's F3): in bypassPermissions a
// worktree session (1) stages .envrc, .claude/settings.json,
// .vscode/settings.json, AGENTS.md and sub/CLAUDE.md through git's plumbing
// (update-index --cacheinfo of a blob the repository has: its objects are
// read-only to the session) and hides them with
// --skip-worktree, for pincer's own commit at the run's end to record (the
// session's own commit stops at the read-only objects and refs: sandbox.GitShare), and (2)
// in another worktree makes pincer's commit take in the main checkout's later
// commit (which deleted .envrc: `git merge --no-commit -s ours main` leaves MERGE_HEAD)
// while keeping .envrc — a change the worktree's files never show. `pincer worktrees` names the
// protected paths, `pincer worktrees merge` refuses both naming them, and the
// main checkout gets none of the marker files.
func TestAttackWorktreeMergeProtected(t *testing.T) {
	e := worktreeEnv(t)
	bashRun := func(wt string, cmds ...string) {
		t.Helper()
		var calls []openaitest.Reply
		for i, c := range cmds {
			args, _ := json.Marshal(map[string]string{"command": c})
			calls = append(calls, openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c" + string(rune('a'+i)), Name: "Bash", Args: string(args)}}})
		}
		e.fake.Push(append(calls, openaitest.Reply{Text: "done"})...)
		out, stderr, code := e.run(e.runArgs("--worktree", wt, "--permission-mode", "bypassPermissions", "--output-format", "stream-json", "go")...)
		if code != 0 {
			t.Fatalf("run in %s: exit %d %s", wt, code, stderr)
		}
		for _, ev := range parseStream(t, out) {
			if ev.Type == "tool.completed" && testing.Verbose() {
				t.Logf("%s: %s", ev.Name, ev.Output)
			}
		}
	}
	names := []string{".envrc", ".claude/settings.json", ".vscode/settings.json", "AGENTS.md", "sub/CLAUDE.md"}
	plumb := "set -e; for n in " + strings.Join(names, " ") + "; do b=$(git rev-parse HEAD:hello.txt); git update-index --add --cacheinfo 100644,$b,$n; done; " +
		"git update-index --skip-worktree " + strings.Join(names, " ") + "; echo STAGED"
	bashRun("w1", plumb)
	tree := wtGit(t, e.repo, "ls-tree", "-r", "--name-only", "pincer/w1")
	for _, n := range names {
		if !strings.Contains(tree, n) {
			t.Fatalf("the plumbing commit lacks %s (the check below would test nothing):\n%s", n, tree)
		}
	}
	out, _, _ := e.run("worktrees")
	for _, n := range names {
		if !strings.Contains(out, n) {
			t.Errorf("pincer worktrees does not name %s:\n%s", n, out)
		}
	}
	out, stderr, code := e.run("worktrees", "merge", "w1")
	if code == 0 || !strings.Contains(stderr, "protected files") {
		t.Errorf("merge w1: %d %q %q", code, out, stderr)
	}
	for _, n := range names {
		if !strings.Contains(stderr, n) {
			t.Errorf("the refusal does not name %s: %s", n, stderr)
		}
		if _, err := os.Lstat(filepath.Join(e.repo, n)); err == nil {
			t.Errorf("%s reached the main checkout", n)
		}
	}

	// (2) The main checkout had .envrc; w2 is made, main then deletes it, and
	// w2's session merges main into its branch keeping its own tree.
	e.write(".envrc", "export A=1\n")
	wtGit(t, e.repo, "add", ".envrc")
	wtGit(t, e.repo, "commit", "-qm", "envrc")
	bashRun("w2", "echo w2 > w2.txt")
	wtGit(t, e.repo, "rm", "-q", ".envrc")
	wtGit(t, e.repo, "commit", "-qm", "drop envrc")
	bashRun("w2", "git -c user.name=m -c user.email=m@m merge -q --no-commit -s ours refs/heads/main 2>&1; echo more > w2b.txt && echo MOVED")
	if !strings.Contains(wtGit(t, e.repo, "ls-tree", "--name-only", "pincer/w2"), ".envrc") {
		t.Fatal("w2's branch lacks .envrc: the check below would test nothing")
	}
	if wtGit(t, e.repo, "merge-base", "main", "pincer/w2") != wtGit(t, e.repo, "rev-parse", "main") {
		t.Fatal("w2's branch did not take in main: the check below would test nothing")
	}
	out, stderr, code = e.run("worktrees", "merge", "w2")
	if code == 0 || !strings.Contains(stderr, "protected files") || !strings.Contains(stderr, ".envrc") {
		t.Errorf("merge w2: %d %q %q", code, out, stderr)
	}
	if _, err := os.Lstat(filepath.Join(e.repo, ".envrc")); err == nil {
		t.Error(".envrc came back into the main checkout")
	}
}
