package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// helperKinds are the repository-configured helpers GitHelperOverrides must
// neutralise: the settings of each (VALUE is replaced by the marker script's
// kind's own script, which runs the marker with the kind as argument).
var helperKinds = []struct {
	name   string
	config [][2]string
}{
	{"diff.external", [][2]string{{"diff.external", "SCRIPT external"}}},
	{"diff.command", [][2]string{{"diff.evil.command", "SCRIPT command"}}},
	{"diff.textconv", [][2]string{{"diff.evil.textconv", "SCRIPT textconv"}}},
	{"filter.clean-smudge", [][2]string{{"filter.evil.clean", "SCRIPT clean"}, {"filter.evil.smudge", "SCRIPT smudge"}, {"filter.evil.required", "true"}}},
	{"filter.process", [][2]string{{"filter.evil.process", "SCRIPT process"}, {"filter.evil.required", "true"}}},
	{"gpg.program", [][2]string{{"gpg.program", "SCRIPT gpg"}}},
	{"gpg.ssh.program", [][2]string{{"gpg.format", "ssh"}, {"gpg.ssh.allowedSignersFile", "/dev/null"}, {"gpg.ssh.program", "SCRIPT gpgssh"}}},
}

// helperForms are the read-only commands tried, each with what its output
// must still contain (a normal diff, log or status) and the exit codes it
// may end with.
var helperForms = []struct {
	cmd   string
	want  []string
	codes []int
}{
	{"git diff", []string{"a.txt", "-one", "+two"}, []int{0}},
	{"git diff -- a.txt", []string{"a/a.txt", "b/a.txt", "-one", "+two"}, []int{0}},
	{"git diff HEAD -- a.txt", []string{"-one", "+two"}, []int{0}},
	{"git diff --cached", []string{"b.txt", "-bee", "+staged"}, []int{0}},
	{"git -C . diff", []string{"a.txt", "+two"}, []int{0}},
	{"git diff --no-index n1.txt n2.txt", []string{"n1.txt", "n2.txt", "-left", "+right"}, []int{1}},
	{"git diff --word-diff", []string{"a.txt", "two"}, []int{0}},
	{"git diff --stat", []string{"a.txt", "1 file"}, []int{0}},
	{"git log -p", []string{"commit ", "c.txt", "-sea", "+see"}, []int{0}},
	{"git log -p --ext-diff -1", []string{"commit ", "c.txt", "+see"}, []int{0}},
	{"git show", []string{"commit ", "c.txt", "-sea", "+see"}, []int{0}},
	{"git show --textconv HEAD:c.txt", []string{"see"}, []int{0}},
	{"git status", []string{"a.txt", "b.txt"}, []int{0}},
	{"git status --short", []string{"M a.txt", "M  b.txt"}, []int{0}},
	{"git blame a.txt", []string{"two"}, []int{0}},
	{"git grep --textconv -e see", []string{"c.txt"}, []int{0}},
	// With gpg.ssh.program back at ssh-keygen and no allowed signers, ssh-keygen
	// may exit before reading the payload git writes to it: git then dies of
	// SIGPIPE (141) now and then, outside pincer too (seen under load in
	// make test); the helper's proof file is what the test judges.
	{"git log --show-signature -1", []string{"commit "}, []int{0, 141}},
	{"git log --format=%G?%h -1", nil, []int{0}},
	{"git show --show-signature -s", []string{"commit "}, []int{0, 141}},
}

// helperMarker is the helper every kind names: it records its kind in a new
// PROOF-<kind>-XXXXXX file of the proofs directory, then does what a harmless
// helper of its kind does (textconv, clean and smudge copy).
const helperMarker = `#!/bin/sh
kind=$1; shift
mktemp "$PROOFS/PROOF-$kind-XXXXXX" >/dev/null
case "$kind" in
  textconv) cat "$1" ;;
  clean|smudge) cat ;;
  gpg|gpgssh) cat >/dev/null 2>&1; exit 1 ;;
esac
exit 0
`

var helperTestEnv = []string{"GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@b",
	"GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@b", "GIT_AUTHOR_DATE=2020-01-01T00:00:00Z",
	"GIT_COMMITTER_DATE=2020-01-01T00:00:00Z"}

// helperRepo makes a repository whose .gitattributes give every file the
// driver "evil" (diff and filter) and whose .git/config sets config, with a
// worktree change (a.txt), a staged one (b.txt), a last commit that changed
// c.txt and carries a (fake) signature, and two untracked files for
// --no-index. It returns the repository and the proofs directory.
func helperRepo(t *testing.T, config [][2]string) (repo, proofs string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo, proofs = t.TempDir(), t.TempDir()
	run := func(stdin string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), helperTestEnv...)
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(repo, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("", "init", "-q")
	write(".gitattributes", "*.txt diff=evil filter=evil\n")
	write("a.txt", "one\n")
	write("b.txt", "bee\n")
	write("c.txt", "sea\n")
	run("", "add", ".")
	run("", "commit", "-qm", "one")
	write("c.txt", "see\n")
	run("", "commit", "-qam", "two")
	raw := run("", "cat-file", "commit", "HEAD")
	armor := "PGP"
	if slices.ContainsFunc(config, func(kv [2]string) bool { return kv[0] == "gpg.ssh.program" }) {
		armor = "SSH"
	}
	signed := strings.Replace(raw, "\n\n", "\ngpgsig -----BEGIN "+armor+" SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END "+armor+" SIGNATURE-----\n\n", 1)
	sha := strings.TrimSpace(run(signed, "hash-object", "-t", "commit", "-w", "--stdin"))
	run("", "update-ref", "HEAD", sha)
	write("b.txt", "staged\n")
	run("", "add", "b.txt")
	write("a.txt", "two\n")
	write("n1.txt", "left\n")
	write("n2.txt", "right\n")
	script := filepath.Join(proofs, "helper.sh")
	if err := os.WriteFile(script, []byte(strings.Replace(helperMarker, "$PROOFS", proofs, 1)), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, kv := range config {
		v := kv[1]
		if kind, ok := strings.CutPrefix(v, "SCRIPT "); ok {
			// One program per kind, named by its path alone: git runs some
			// helpers (gpg.program) without a shell.
			v = filepath.Join(proofs, kind+".sh")
			if err := os.WriteFile(v, []byte("#!/bin/sh\nexec "+script+" "+kind+" \"$@\"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		run("", "config", kv[0], v)
	}
	// Make every file's stat data stale, so that status and diff run the
	// clean filter on them.
	old := time.Now().Add(-time.Hour)
	for _, f := range []string{"a.txt", "b.txt", "c.txt"} {
		_ = os.Chtimes(filepath.Join(repo, f), old, old)
	}
	return repo, proofs
}

// takeProofs returns the kinds of the PROOF files in dir and removes them.
func takeProofs(dir string) []string {
	m, _ := filepath.Glob(filepath.Join(dir, "PROOF-*"))
	var kinds []string
	for _, p := range m {
		kinds = append(kinds, filepath.Base(p))
		_ = os.Remove(p)
	}
	return kinds
}

// TestGitHelperOverridesForms tries every read-only form against a repository
// configured with each helper kind: first with GitSafeEnv only (the
// environment before GitHelperOverrides), to count what the fixture makes
// run, then through Run, where no marker may run and the output must stay a
// normal diff, log or status.
func TestGitHelperOverridesForms(t *testing.T) {
	t.Setenv("GIT_CONFIG_GLOBAL", "/dev/null") // GitHelperOverrides's own git reads no ~/.gitconfig
	tried, ranBefore, ranAfter := 0, 0, 0
	for _, k := range helperKinds {
		repo, proofs := helperRepo(t, k.config)
		kindRan := 0
		for _, f := range helperForms {
			tried++
			// Before: GitSafeEnv only.
			before := exec.Command("bash", "-c", f.cmd)
			before.Dir = repo
			before.Env = buildEnv(os.Environ(), nil, helperTestEnv...)
			_ = before.Run()
			if p := takeProofs(proofs); len(p) > 0 {
				ranBefore++
				kindRan++
			}
			res, err := Run(context.Background(), Command{Path: "bash", Args: []string{"-c", f.cmd}, Dir: repo,
				Env: helperTestEnv, Timeout: 20 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if p := takeProofs(proofs); len(p) > 0 {
				ranAfter++
				t.Errorf("%s / %s: the repository's helper ran: %v\n%s", k.name, f.cmd, p, res.Output)
			}
			if !slices.Contains(f.codes, res.ExitCode) {
				t.Errorf("%s / %s: exit %d, want one of %v:\n%s", k.name, f.cmd, res.ExitCode, f.codes, res.Output)
			}
			for _, w := range f.want {
				if !strings.Contains(res.Output, w) {
					t.Errorf("%s / %s: output lacks %q:\n%s", k.name, f.cmd, w, res.Output)
				}
			}
		}
		t.Logf("%s: %d of %d forms ran the helper before", k.name, kindRan, len(helperForms))
		if kindRan == 0 {
			t.Errorf("%s: the fixture is broken: no form ran the helper without the overrides", k.name)
		}
	}
	t.Logf("forms × kinds tried: %d; ran a helper before: %d, after: %d", tried, ranBefore, ranAfter)
}

// TestGitHelperOverridesAddCommit: with a filter (or any helper) configured,
// git add and git commit still work and store the content unconverted.
func TestGitHelperOverridesAddCommit(t *testing.T) {
	t.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	for _, k := range helperKinds {
		repo, proofs := helperRepo(t, k.config)
		script := "git add -A && git commit -qm three && git show HEAD:a.txt && rm a.txt && git checkout -- a.txt && cat a.txt && git status --short"
		res, err := Run(context.Background(), Command{Path: "bash", Args: []string{"-c", script}, Dir: repo,
			Env: helperTestEnv, Timeout: 20 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if p := takeProofs(proofs); len(p) > 0 {
			t.Errorf("%s: add/commit/checkout ran the repository's helper: %v", k.name, p)
		}
		if res.ExitCode != 0 || res.Output != "two\ntwo\n" {
			t.Errorf("%s: exit %d, output %q, want the content stored and checked out as is, a clean status", k.name, res.ExitCode, res.Output)
		}
	}
}

// TestGitHelperOverridesSandboxed: the Executor (sandbox on) gets the same
// overrides, since it runs through Run.
func TestGitHelperOverridesSandboxed(t *testing.T) {
	t.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	repo, proofs := helperRepo(t, [][2]string{{"diff.external", "SCRIPT external"}, {"diff.evil.textconv", "SCRIPT textconv"}})
	ws, err := NewWorkspace(repo)
	if err != nil {
		t.Fatal(err)
	}
	e := &Executor{Policy: DefaultPolicy(), Workspace: ws}
	for _, c := range []string{"git diff", "git log -p -1", "git diff --cached"} {
		res, err := e.Run(context.Background(), Command{Path: "bash", Args: []string{"-c", c}, Dir: repo,
			Env: helperTestEnv, Timeout: 20 * time.Second})
		if err != nil || res.ExitCode != 0 || !strings.Contains(res.Output, "diff --git") {
			t.Errorf("sandboxed %s: %v exit %d %s", c, err, res.ExitCode, res.Output)
		}
		if p := takeProofs(proofs); len(p) > 0 {
			t.Errorf("sandboxed %s ran the repository's helper: %v", c, p)
		}
	}
}

// TestGitExternalDiffOverride: the diff.external replacement prints a
// sensible diff for an added, a deleted, a binary, a renamed and an unmerged
// path, and never makes git fail.
func TestGitExternalDiffOverride(t *testing.T) {
	t.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	repo, proofs := helperRepo(t, [][2]string{{"diff.external", "SCRIPT external"}})
	script := `set -e
echo new > new.txt; git add new.txt
git rm -q --cached c.txt
printf 'x\0y' > bin.dat; git add bin.dat
git diff --cached
seq 1 50 > long.txt; git add long.txt; git commit -qm long
git mv long.txt moved.txt; seq 1 49 > moved.txt; git add moved.txt
git diff --cached -M -- long.txt moved.txt`
	res, err := Run(context.Background(), Command{Path: "bash", Args: []string{"-c", script}, Dir: repo,
		Env: helperTestEnv, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if p := takeProofs(proofs); len(p) > 0 {
		t.Errorf("ran the repository's helper: %v", p)
	}
	for _, w := range []string{"diff --git a/new.txt b/new.txt", "--- /dev/null", "+++ b/new.txt", "+new",
		"--- a/c.txt", "+++ /dev/null", "-see", "bin.dat", "diff --git a/long.txt b/moved.txt", "--- a/long.txt", "+++ b/moved.txt", "-50"} {
		if !strings.Contains(res.Output, w) {
			t.Errorf("output lacks %q", w)
		}
	}
	if res.ExitCode != 0 {
		t.Errorf("exit %d", res.ExitCode)
	}
	if t.Failed() {
		t.Logf("output:\n%s", res.Output)
	}
	// An unmerged path: git shows a combined diff itself, or passes the
	// external diff one argument.
	conflict := `set -e
git stash -q
git checkout -q -b side; echo side > a.txt; git commit -qam side
git checkout -q -; echo main > a.txt; git commit -qam main
git merge -q side >/dev/null 2>&1 || true
git diff; git diff --cached; git diff HEAD`
	res, err = Run(context.Background(), Command{Path: "bash", Args: []string{"-c", conflict}, Dir: repo,
		Env: helperTestEnv, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if p := takeProofs(proofs); len(p) > 0 {
		t.Errorf("ran the repository's helper: %v", p)
	}
	if res.ExitCode != 0 || !strings.Contains(res.Output, "a.txt") {
		t.Errorf("unmerged: exit %d:\n%s", res.ExitCode, res.Output)
	}
}

// TestGitHelperOverridesSubmodule: the helpers a populated submodule's own
// config names (.git/modules/NAME/config, or NAME/.git/config for one added
// from a repository already in the work tree) are neutralised too: `git status`
// in the superproject runs the submodule's clean filter, `git diff
// --submodule=diff` its textconv.
func TestGitHelperOverridesSubmodule(t *testing.T) {
	t.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	sub, _ := helperRepo(t, nil)
	repo, proofs := helperRepo(t, nil)
	script := filepath.Join(proofs, "helper.sh")
	setup := `set -e
git -c protocol.file.allow=always submodule -q add "$SUB" deep/sm
git commit -qm sm
git -C deep/sm config filter.evil.clean "$H clean"
git -C deep/sm config filter.evil.required true
git -C deep/sm config diff.evil.textconv "$H textconv"
git -C deep/sm checkout -q -- .
echo sea > deep/sm/a.txt; touch -d '1 hour ago' deep/sm/a.txt
git -C deep/sm -c filter.evil.clean=cat commit -qam change
git clone -q "$SUB" inner
git -c protocol.file.allow=always submodule -q add "$SUB" inner
git commit -qm inner
echo '*.txt filter=other' > inner/.gitattributes
git -C inner config filter.other.clean "$H clean"
git -C inner config filter.other.required true
git -C inner -c filter.other.clean=cat commit -qam other`
	cmd := exec.Command("bash", "-c", setup)
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), append(helperTestEnv, "SUB="+sub, "H="+script)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if fi, err := os.Stat(filepath.Join(repo, "inner", ".git")); err != nil || !fi.IsDir() {
		t.Fatalf("inner/.git is not a directory in the work tree: %v", err)
	}
	write := func() { // a same-size change with stale stat data: status must look at the content
		old := time.Now().Add(-time.Hour)
		for _, f := range []string{"deep/sm/b.txt", "inner/b.txt"} {
			_ = os.WriteFile(filepath.Join(repo, f), []byte("BEE\n"), 0o644)
			_ = os.Chtimes(filepath.Join(repo, f), old, old)
		}
	}
	for _, c := range []string{"git status", "git status --short", "git diff --submodule=diff", "git diff HEAD --submodule=diff"} {
		write()
		takeProofs(proofs)
		before := exec.Command("bash", "-c", c)
		before.Dir = repo
		before.Env = buildEnv(os.Environ(), nil, helperTestEnv...)
		_ = before.Run()
		ranBefore := takeProofs(proofs)
		res, err := Run(context.Background(), Command{Path: "bash", Args: []string{"-c", c}, Dir: repo,
			Env: helperTestEnv, Timeout: 20 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if p := takeProofs(proofs); len(p) > 0 {
			t.Errorf("%s ran the submodule's helper: %v\n%s", c, p, res.Output)
		}
		if res.ExitCode != 0 || !strings.Contains(res.Output, "deep/sm") || !strings.Contains(res.Output, "inner") {
			t.Errorf("%s: exit %d:\n%s", c, res.ExitCode, res.Output)
		}
		if c == "git status" && len(ranBefore) < 2 {
			t.Error("the fixture is broken: git status ran no clean filter in the submodule without the overrides")
		}
		t.Logf("%s: before %v", c, ranBefore)
	}
}

// TestHelperOverridesParse covers the mapping from `git config --show-scope
// --name-only --null` output to overrides.
func TestHelperOverridesParse(t *testing.T) {
	listing := strings.Join([]string{
		"local", "diff.external",
		"local", "diff.a.b.textconv",
		"worktree", "diff.Evil.command",
		"local", "filter.lfs.clean",
		"local", "filter.lfs.process",
		"global", "filter.user.clean",
		"system", "diff.sys.textconv",
		"local", "gpg.program",
		"local", "gpg.ssh.program",
		"local", "gpg.x509.program",
		"local", "core.sshcommand",
		"local", "core.askpass",
		"local", "remote.origin.uploadpack",
		"local", "remote.origin.receivepack",
	}, "\x00") + "\x00"
	got := helperOverrides(listing)
	want := [][2]string{
		{"diff.external", gitExternalDiff()},
		{"diff.a.b.textconv", gitCat()},
		{"diff.Evil.command", gitExternalDiff()},
		{"filter.lfs.clean", ""}, {"filter.lfs.required", "false"},
		{"filter.lfs.process", ""},
		{"gpg.program", "gpg"},
		{"gpg.ssh.program", "ssh-keygen"},
		{"gpg.x509.program", "gpgsm"},
		{"core.sshcommand", "ssh"},
		{"core.askpass", ""},
		{"remote.origin.uploadpack", "git-upload-pack"},
		{"remote.origin.receivepack", "git-receive-pack"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestGitHelperOverridesNoRepo: outside a repository no git runs and nothing
// is overridden; GitSafeEnvFor is then GitSafeEnv.
func TestGitHelperOverridesNoRepo(t *testing.T) {
	dir := t.TempDir()
	if _, ok := findGitDir(dir); ok {
		t.Skip("the temp dir is inside a git repository")
	}
	if got := GitHelperOverrides(context.Background(), dir); got != nil {
		t.Errorf("got %v", got)
	}
	if got := GitSafeEnvFor(context.Background(), dir); !slices.Equal(got, GitSafeEnv()) {
		t.Errorf("GitSafeEnvFor outside a repository: %v", got)
	}
}

// TestGitHelperOverridesFailClosed: when the listing cannot run (here: its
// context is over), the overrides make git refuse to run.
func TestGitHelperOverridesFailClosed(t *testing.T) {
	t.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	repo, proofs := helperRepo(t, [][2]string{{"diff.external", "SCRIPT external"}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	env := GitSafeEnvFor(ctx, repo)
	cmd := exec.Command("git", "diff")
	cmd.Dir = repo
	cmd.Env = buildEnv(os.Environ(), nil, append(env, helperTestEnv...)...)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "pincer could not list") {
		t.Errorf("git diff with an unchecked repository: %v\n%s", err, out)
	}
	if p := takeProofs(proofs); len(p) > 0 {
		t.Errorf("ran the repository's helper: %v", p)
	}
}

// TestGitSafeEnvForNumbering: the overrides follow gitSafeConfig's settings
// under one GIT_CONFIG_COUNT.
func TestGitSafeEnvForNumbering(t *testing.T) {
	env := gitSafeEnvWith([][2]string{{"diff.x.textconv", "cat"}})
	n := len(gitSafeConfig)
	for _, want := range []string{
		"GIT_CONFIG_COUNT=" + strconv.Itoa(n+1),
		"GIT_CONFIG_KEY_" + strconv.Itoa(n) + "=diff.x.textconv",
		"GIT_CONFIG_VALUE_" + strconv.Itoa(n) + "=cat",
		"GIT_CONFIG_KEY_0=core.fsmonitor",
	} {
		if !slices.Contains(env, want) {
			t.Errorf("missing %s in %v", want, env)
		}
	}
}

// BenchmarkGitHelperOverrides measures the cost added to a command run in a
// repository (one `git config`) and outside one (a walk up the tree).
func BenchmarkGitHelperOverrides(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git not installed")
	}
	repo := b.TempDir()
	cmd := exec.Command("git", "init", "-q", repo)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%v %s", err, out)
	}
	for _, kv := range [][2]string{{"diff.external", "x"}, {"diff.evil.textconv", "x"}, {"filter.evil.clean", "x"}} {
		if out, err := exec.Command("git", "-C", repo, "config", kv[0], kv[1]).CombinedOutput(); err != nil {
			b.Fatalf("%v %s", err, out)
		}
	}
	sub := filepath.Join(repo, "a", "b", "c")
	_ = os.MkdirAll(sub, 0o755)
	b.Run("repo", func(b *testing.B) {
		for range b.N {
			if len(GitHelperOverrides(context.Background(), sub)) != 4 {
				b.Fatal("wrong overrides")
			}
		}
	})
	b.Run("no-repo", func(b *testing.B) {
		dir := b.TempDir()
		for range b.N {
			GitHelperOverrides(context.Background(), dir)
		}
	})
}
