package e2e

// Issue 10, "usability does not pay for it": with the fixes in, literal read-only
// commands still need no approval in default mode with no rules, and the everyday
// allowed commands — git add + git commit, go test ./... on a module without
// dependencies, make, npm test — work in the sandbox.

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// literalReadOnlyForms are commands that needed no approval before issue 10's
// fixes (checked against the code before them; sort, uniq, sed, awk, file, git
// rev-parse/ls-files/blame were never in the read-only set).
func literalReadOnlyForms() []attackForm {
	var forms []attackForm
	for _, c := range []string{
		"git status", "git status --short", "git log --oneline -1", "git log -p -1", "git diff", "git diff --stat",
		"git show --stat HEAD", "git branch",
		"ls", "ls -la", "pwd", "echo hi", "grep -rn hello .", "grep -c hello hello.txt", "rg hello",
		"cat go.mod | wc -l", "cat hello.txt | grep hello", "cat hello.txt | head -1 | wc -c",
		"head -1 hello.txt", "tail -n 1 hello.txt", "wc -l hello.txt", "find . -name '*.txt'", "diff hello.txt hello.txt",
		"test -f hello.txt", "[ -d . ]", "[[ -n x ]]", "stat hello.txt", "du -sh .",
		"ls 2>/dev/null", "echo x > /dev/null", "git log --oneline | head -5",
	} {
		forms = append(forms, attackForm{Name: c, Cmd: c})
	}
	return forms
}

// TestAttackUsabilityLiteralReadOnly: default mode, no rules: these run unasked.
func TestAttackUsabilityLiteralReadOnly(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	a.write("go.mod", "module tiny\n\ngo 1.21\n")
	r := a.runForms("ur", literalReadOnlyForms())
	expectAllowed(t, r, nil)
}

// TestAttackUsabilityGitCommit: --allowed-tools 'Bash(git add:*) Bash(git commit:*)'
// lets a sandboxed `git add . && git commit -m x` make a commit.
func TestAttackUsabilityGitCommit(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	gitIn(t, a.repo, "config", "user.email", "t@example.com")
	gitIn(t, a.repo, "config", "user.name", "t")
	a.write("new.txt", "new\n")
	r := a.runForms("uc", []attackForm{{Name: "add-and-commit", Cmd: `git add . && git commit -m x`}},
		"--allowed-tools", "Bash(git add:*) Bash(git commit:*)")
	expectAllowed(t, r, func(t *testing.T, c *callResult) {
		if out := gitIn(t, a.repo, "log", "--oneline"); strings.Count(out, "\n") != 2 {
			t.Errorf("no new commit: %s\n  %s", out, c.describe())
		}
		if out := gitIn(t, a.repo, "ls-files", "new.txt"); strings.TrimSpace(out) != "new.txt" {
			t.Errorf("new.txt not committed\n  %s", c.describe())
		}
	})
}

// TestAttackUsabilityBuildTools: go test ./..., make and npm test work sandboxed
// under their allow rules.
func TestAttackUsabilityBuildTools(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	a.write("go.mod", "module tiny\n\ngo 1.21\n")
	a.write("tiny.go", "package tiny\n\nfunc Add(a, b int) int { return a + b }\n")
	a.write("tiny_test.go", "package tiny\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"bad\")\n\t}\n}\n")
	a.write("Makefile", "all:\n\techo built > built.txt\n")
	forms := []attackForm{
		{Name: "go-test", Cmd: `go test ./...`},
		{Name: "make", Cmd: `make`},
	}
	if _, err := exec.LookPath("npm"); err == nil {
		a.write("package.json", `{"name":"tiny","version":"1.0.0","scripts":{"test":"node -e \"console.log('npm-test-ok')\""}}`)
		forms = append(forms, attackForm{Name: "npm-test", Cmd: `npm test`})
	}
	r := a.runForms("ub", forms, "--allowed-tools", "Bash(go test:*) Bash(make:*) Bash(npm test:*)")
	expectAllowed(t, r, func(t *testing.T, c *callResult) {
		switch c.Form.Name {
		case "go-test":
			if !strings.Contains(c.Output, "ok") || !strings.Contains(c.Output, "tiny") {
				t.Errorf("go test did not pass\n  %s", c.describe())
			}
		case "make":
			if !exists(filepath.Join(a.repo, "built.txt")) {
				t.Errorf("make built nothing\n  %s", c.describe())
			}
		case "npm-test":
			if !strings.Contains(c.Output, "npm-test-ok") {
				t.Errorf("npm test did not run the script\n  %s", c.describe())
			}
		}
	})
}
