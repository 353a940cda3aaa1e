package tools

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBashGitEditorsDoNotHang runs a real git whose global config names, as
// core.editor and sequence.editor, a script that would hang (it leaves a
// marker and sleeps): `git rebase -i`, `git commit --amend` and `git merge`
// must finish at once under Bash's environment, because GIT_SEQUENCE_EDITOR
// and GIT_EDITOR beat the gitconfig. The control case unsets them in the
// command and shows that the gitconfig's editor is what would have run.
func TestBashGitEditorsDoNotHang(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	env, root := newTestEnv(t)
	home := t.TempDir()
	marker := filepath.Join(home, "editor-ran")
	hang := filepath.Join(home, "hang.sh")
	if err := os.WriteFile(hang, []byte("#!/bin/sh\ntouch "+marker+"\nsleep 60\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	gitconfig := "[core]\n\teditor = " + hang + "\n[sequence]\n\teditor = " + hang + "\n"
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(gitconfig), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", root}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_EDITOR=true", "GIT_SEQUENCE_EDITOR=true")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	git("config", "user.name", "T")
	git("config", "user.email", "t@example.com")
	for _, f := range []string{"a", "b", "c"} {
		writeTestFile(t, root, f+".txt", f+"\n")
		git("add", f+".txt")
		git("commit", "-q", "-m", "add "+f)
	}
	git("branch", "side", "HEAD~1")

	const script = "git rebase -i HEAD~2 && git commit --amend && git checkout -q side && git merge main && git log --format=%s | head -1 && echo FINISHED"
	for policyName, policy := range map[string]bool{"no policy": false, "sandboxed": true} {
		t.Run(policyName, func(t *testing.T) {
			env.Sandbox = nil
			if policy {
				env.Sandbox = bashPolicies()["sandboxed"]
			}
			git("checkout", "-q", "main")
			res, err := runTool(t, Bash{}, env, BashInput{Command: script, Timeout: 30000})
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError || !strings.Contains(res.Output, "FINISHED") {
				t.Fatalf("git with editors in the gitconfig did not finish:\n%s", res.Output)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Fatal("the gitconfig's editor ran")
			}
		})
	}

	t.Run("control: without the overrides the gitconfig's editor runs", func(t *testing.T) {
		env.Sandbox = nil
		git("checkout", "-q", "main")
		res, err := runTool(t, Bash{}, env, BashInput{Command: "unset GIT_SEQUENCE_EDITOR GIT_EDITOR; git rebase -i HEAD~1", Timeout: 3000})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Output, "timed out") {
			t.Fatalf("expected the editor to hang the rebase, got:\n%s", res.Output)
		}
		if _, err := os.Stat(marker); err != nil {
			t.Fatal("the gitconfig's editor did not run in the control case")
		}
	})
}
