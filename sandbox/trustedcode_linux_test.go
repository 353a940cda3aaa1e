package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// trustedCodeForms are the ways a model's command rewrites a file trusted code
// runs (F: its path), each leaving the payload "touch $MARKER" in it.
var trustedCodeForms = []string{
	`printf '#!/bin/sh\ntouch "$MARKER"\n' > F`,
	`echo 'touch "$MARKER"' >> F`,
	`sed -i 's/^true$/touch "$MARKER"/' F`,
	`cp evil F`,
	`cp evil t && mv -f t F`,
	`ln -sf "$PWD/evil" F`,
	`rm -f F; cp evil F`,
	`git checkout bad -- F`,
	`cd $(dirname F) && cp "$OLDPWD/evil" $(basename F)`,
	`mv $(dirname F) moved.$$ && mkdir -p $(dirname F) && cp evil F`,
}

// TestAttackTrustedCodePaths (brief r19 D1, D2): with core.hooksPath =
// tools/hooks in the repository's own config, and scripts/check.sh, a script
// a trusted hook runs, every form rewrites them without Policy.TrustedCode
// (seen: the test fails on each form then) and none does with it; the
// person's `git commit` afterwards, outside the sandbox, runs no payload.
func TestAttackTrustedCodePaths(t *testing.T) {
	for _, protect := range []bool{false, true} {
		pol := DefaultPolicy()
		pol.QuarantineDir = t.TempDir()
		e, root := newSandbox(t, pol)
		marker := filepath.Join(t.TempDir(), "MARKER")
		t.Setenv("MARKER", marker)
		write := func(rel, body string) {
			p := filepath.Join(root, rel)
			_ = os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		const good = "#!/bin/sh\ntrue\n"
		const bad = "#!/bin/sh\ntouch \"$MARKER\"\n"
		personGit(t, root, "init", "-q")
		personGit(t, root, "config", "core.hooksPath", "tools/hooks")
		write("tools/hooks/pre-commit", bad)
		write("scripts/check.sh", bad)
		personGit(t, root, "-c", "core.hooksPath=/dev/null", "add", "-A")
		personGit(t, root, "-c", "core.hooksPath=/dev/null", "commit", "-qm", "bad")
		personGit(t, root, "branch", "bad")
		write("tools/hooks/pre-commit", good)
		write("scripts/check.sh", good)
		write("evil", bad)
		personGit(t, root, "-c", "core.hooksPath=/dev/null", "commit", "-qam", "good")
		g, err := GitHooksOf(context.Background(), root)
		if err != nil || g.HooksDir != filepath.Join(root, "tools", "hooks") {
			t.Fatalf("GitHooksOf = %+v, %v; want the hooks dir tools/hooks", g, err)
		}
		if protect {
			e.Policy.TrustedCode = []string{"tools/hooks/", "scripts/check.sh"}
		}
		for _, f := range []string{"tools/hooks/pre-commit", "scripts/check.sh"} {
			for _, form := range trustedCodeForms {
				res := sh(t, e, strings.ReplaceAll(form, "F", f))
				b, _ := os.ReadFile(filepath.Join(root, f))
				changed := string(b) != good
				switch {
				case protect && changed:
					t.Errorf("%s: %q changed it to %q (exit %d, %q)", f, form, b, res.ExitCode, res.Notice)
				case !protect && !changed:
					t.Errorf("unprotected %s: %q left it as it was (exit %d, %s): the form proves nothing", f, form, res.ExitCode, res.Output)
				}
				// Put it back as the person had it, outside the sandbox.
				_ = os.RemoveAll(filepath.Join(root, f))
				write(f, good)
			}
		}
		// The model's last try, then the person's next commit.
		sh(t, e, `cp evil tools/hooks/pre-commit; cp evil scripts/check.sh`)
		write("new.txt", "x\n")
		cmd := exec.Command("git", "commit", "-qam", "after the session")
		cmd.Dir, cmd.Env = root, append(os.Environ(), gitEnv...)
		_ = exec.Command("git", "-C", root, "add", "new.txt").Run()
		out, _ := cmd.CombinedOutput()
		_, statErr := os.Stat(marker)
		if protect && statErr == nil {
			t.Errorf("the person's git commit ran the model's hook payload (%s)", out)
		}
		if !protect && statErr != nil {
			t.Errorf("unprotected: the person's git commit did not run the payload (%s): the test proves nothing", out)
		}
	}
}

// TestGitHooksOfFailsClosed: a config git cannot parse is an error (the
// session then makes .git read-only); a relative core.hooksPath from a
// workspace below the top is taken from the top, and an included config file
// is listed.
func TestGitHooksOfFailsClosed(t *testing.T) {
	root := t.TempDir()
	personGit(t, root, "init", "-q")
	if err := os.MkdirAll(filepath.Join(root, "sub", "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	inc := filepath.Join(root, "sub", "tools", "gitcfg")
	if err := os.WriteFile(inc, []byte("[core]\n\thooksPath = sub/hooks\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	personGit(t, root, "config", "include.path", "../sub/tools/gitcfg")
	g, err := GitHooksOf(context.Background(), filepath.Join(root, "sub"))
	if err != nil || g.HooksDir != filepath.Join(root, "sub", "hooks") {
		t.Fatalf("GitHooksOf = %+v, %v; want %s", g, err, filepath.Join(root, "sub", "hooks"))
	}
	found := false
	for _, f := range g.ConfigFiles {
		found = found || f == inc
	}
	if !found {
		t.Errorf("ConfigFiles = %v, no %s", g.ConfigFiles, inc)
	}
	f, err := os.OpenFile(filepath.Join(root, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString("[core\n")
	f.Close()
	if g, err := GitHooksOf(context.Background(), root); err == nil {
		t.Errorf("GitHooksOf of a broken config = %+v, no error", g)
	}
}

// TestSetHooksPathIsProtected (brief r19 D1): `git config core.hooksPath X`
// inside the sandbox writes .git/config, a protected path: it fails, and the
// config keeps no hooksPath.
func TestSetHooksPathIsProtected(t *testing.T) {
	pol := DefaultPolicy()
	pol.QuarantineDir = t.TempDir()
	e, root := newSandbox(t, pol)
	personGit(t, root, "init", "-q")
	for _, c := range []string{`git config core.hooksPath tools/hooks`, `git config --local core.hooksPath tools/hooks`,
		`cd tools 2>/dev/null; git config core.hooksPath "$PWD/x"`} {
		sh(t, e, c)
		if g, _ := GitHooksOf(context.Background(), root); g.HooksDir != "" {
			t.Errorf("%q set core.hooksPath = %s", c, g.HooksDir)
		}
	}
}
