package builtin

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/config"
)

// repo is a temporary git repository with a fixed identity and no user or
// system git config.
type repo struct {
	t   testing.TB
	dir string
}

func newRepo(t testing.TB) *repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, "gitconfig"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for k, v := range map[string]string{"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com",
		"GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com"} {
		t.Setenv(k, v)
	}
	r := &repo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	return r
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", r.dir}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (r *repo) write(name, text string) {
	r.t.Helper()
	p := filepath.Join(r.dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *repo) commit(msg string) {
	r.t.Helper()
	r.git("add", "-A")
	r.git("commit", "-q", "-m", msg)
}

func expand(t *testing.T, name string, env Env) string {
	t.Helper()
	s, ok := Lookup(name)
	if !ok {
		t.Fatalf("no built-in %q", name)
	}
	out, err := s.Expand(context.Background(), env)
	if err != nil {
		t.Fatalf("/%s: %v", name, err)
	}
	return out
}

func mustContain(t *testing.T, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("missing %q in:\n%s", w, text)
		}
	}
}

func mustNotContain(t *testing.T, text string, bad ...string) {
	t.Helper()
	for _, b := range bad {
		if strings.Contains(text, b) {
			t.Errorf("unexpected %q in:\n%s", b, text)
		}
	}
}

func TestCommitGathersStagedUnstagedUntrackedAndStyle(t *testing.T) {
	r := newRepo(t)
	r.write("a.go", "package a\n")
	r.write("b.txt", "one\n")
	r.commit("feat: first")
	r.write("b.txt", "one\ntwo\n")
	r.commit("fix: second")
	r.write("a.go", "package a\n\nfunc StagedLine() {}\n")
	r.git("add", "a.go")
	r.write("b.txt", "one\ntwo\nunstaged line\n")
	r.write("new.txt", "untracked\n")
	r.write("bin.dat", "\x00\x01\x02binary")
	r.git("add", "bin.dat")
	out := expand(t, "commit", Env{Dir: r.dir, Args: "leave out b.txt"})
	mustContain(t, out, "Branch: main", "+func StagedLine() {}", "+unstaged line", "?? new.txt", "A  bin.dat",
		"Binary files /dev/null and b/bin.dat differ", "fix: second", "feat: first", "The person added: leave out b.txt",
		"git commit -m")
	if i, j := strings.Index(out, "StagedLine"), strings.Index(out, "unstaged line"); i < 0 || j < i {
		t.Errorf("the staged diff should come before the unstaged one")
	}
}

func TestCommitInANewRepositoryAndDetachedHead(t *testing.T) {
	r := newRepo(t)
	r.write("first.txt", "hello\n")
	r.git("add", "first.txt")
	out := expand(t, "commit", Env{Dir: r.dir})
	mustContain(t, out, "Branch: main", "+hello", "none yet: this will be the first commit")

	r.commit("one")
	r.write("first.txt", "hello\nagain\n")
	r.commit("two")
	r.git("checkout", "-q", "--detach", "HEAD~1")
	out = expand(t, "commit", Env{Dir: r.dir})
	mustContain(t, out, "Branch: detached HEAD at ", "clean: nothing to commit", "one")
	mustNotContain(t, out, "two\n")
}

func TestCommitHugeDiffIsCutAndSaysWhere(t *testing.T) {
	r := newRepo(t)
	r.write("big.txt", "start\n")
	r.commit("base")
	var b strings.Builder
	for i := 0; b.Len() < 3*MaxDiffBytes; i++ {
		b.WriteString("a long line of the huge change, number ")
		b.WriteString(strings.Repeat("x", i%17))
		b.WriteString("\n")
	}
	r.write("big.txt", b.String())
	out := expand(t, "commit", Env{Dir: r.dir})
	mustContain(t, out, "[diff cut: ", "run `git diff` for the rest]")
	if len(out) > MaxDiffBytes+8000 {
		t.Errorf("expansion is %d bytes; the diff was not cut to %d", len(out), MaxDiffBytes)
	}
}

func TestOutsideARepositoryFails(t *testing.T) {
	newRepo(t) // isolate git's config
	dir := t.TempDir()
	for _, name := range []string{"commit", "pr", "review", "simplify"} {
		s, _ := Lookup(name)
		if _, err := s.Expand(context.Background(), Env{Dir: dir}); err == nil || !strings.Contains(err.Error(), "not a git repository") {
			t.Errorf("/%s outside a repository: %v, want not a git repository", name, err)
		}
	}
}

func TestRepositoryConfigRunsNothing(t *testing.T) {
	r := newRepo(t)
	marker := filepath.Join(t.TempDir(), "PROOF")
	r.write("a.txt", "a\n")
	r.write(".gitattributes", "*.txt diff=evil filter=evil\n")
	r.commit("base")
	payload := "sh -c 'touch " + marker + "'"
	for _, kv := range [][2]string{{"core.fsmonitor", payload}, {"diff.evil.textconv", payload}, {"diff.external", payload},
		{"filter.evil.clean", payload}, {"core.pager", payload}, {"log.showSignature", "true"}, {"gpg.program", payload}} {
		r.git("config", kv[0], kv[1])
	}
	r.write("a.txt", "a\nb\n")
	for _, name := range []string{"commit", "review", "simplify"} {
		expand(t, name, Env{Dir: r.dir})
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a repository helper ran while gathering context")
	}
}

func TestReviewRanges(t *testing.T) {
	r := newRepo(t)
	r.write("f.txt", "1\n")
	r.commit("c1")
	r.git("checkout", "-q", "-b", "topic")
	r.write("f.txt", "1\n2\n")
	r.commit("c2 on topic")
	r.write("f.txt", "1\n2\n3\n")
	r.commit("c3 on topic")

	out := expand(t, "review", Env{Dir: r.dir, Args: "main..HEAD look at errors"})
	mustContain(t, out, "The change: main..HEAD", "c2 on topic", "c3 on topic", "+2", "+3",
		"The person asks you to focus on: look at errors", "Do not edit any file")

	out = expand(t, "review", Env{Dir: r.dir, Args: "HEAD~1"})
	mustContain(t, out, "the changes since HEAD~1", "c3 on topic", "+3")
	mustNotContain(t, out, "c2 on topic")

	out = expand(t, "review", Env{Dir: r.dir, Args: "security please"})
	mustContain(t, out, "the uncommitted changes", "focus on: security please", "(empty: nothing changed)")

	r.write("f.txt", "changed\n")
	r.write("new.go", "package x\n")
	out = expand(t, "simplify", Env{Dir: r.dir})
	mustContain(t, out, "-1", "+changed", "new.go", "Duplication")

	s, _ := Lookup("review")
	for _, bad := range []string{"nosuch..HEAD", "main..nosuch", "-p..HEAD", "..", "main..$(touch PROOF)", "main..HEAD;touch", "a..b..c", "main:f.txt..HEAD"} {
		if _, err := s.Expand(context.Background(), Env{Dir: r.dir, Args: bad}); err == nil {
			t.Errorf("/review %q: expanded, want an error", bad)
		}
	}
}

func TestReviewInANewRepository(t *testing.T) {
	r := newRepo(t)
	r.write("x.txt", "staged\n")
	r.git("add", "x.txt")
	r.write("x.txt", "staged\nand unstaged\n")
	out := expand(t, "review", Env{Dir: r.dir})
	mustContain(t, out, "without commits yet", "+staged", "+and unstaged")
}

func TestSplitRange(t *testing.T) {
	isRef := func(w string) bool { return w == "main" || w == "v1" }
	for _, c := range []struct{ args, rng, focus string }{
		{"", "", ""},
		{"main..HEAD", "main..HEAD", ""},
		{"main...topic  the API", "main...topic", "the API"},
		{"main tests", "main", "tests"},
		{"security", "", "security"},
		{"look at main", "", "look at main"},
		{"x..y z", "x..y", "z"},
	} {
		rng, focus, _ := splitRange(c.args, isRef)
		if rng != c.rng || focus != c.focus {
			t.Errorf("splitRange(%q) = %q, %q; want %q, %q", c.args, rng, focus, c.rng, c.focus)
		}
	}
}

func TestValidRefText(t *testing.T) {
	for s, want := range map[string]bool{
		"main": true, "HEAD~2": true, "origin/main": true, "v1.2.3": true, "HEAD^": true, "abc123": true,
		"": false, "-p": false, "--output=x": false, "a b": false, "$(id)": false, "`id`": false, "a;b": false,
		"HEAD:file": false, "@{u}": false, "a|b": false, "x\n": false, "a..b": false, strings.Repeat("a", 201): false,
	} {
		if got := validRefText(s); got != want {
			t.Errorf("validRefText(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestPRBaseLogAndGh(t *testing.T) {
	r := newRepo(t)
	r.write("f.txt", "1\n")
	r.commit("base commit")
	r.git("checkout", "-q", "-b", "feature")
	r.write("f.txt", "1\nfeature line\n")
	r.commit("add the feature")
	r.write("dirty.txt", "x\n")

	withGh := func(name string) (string, error) { return "/usr/bin/" + name, nil }
	out := expand(t, "pr", Env{Dir: r.dir, LookPath: withGh})
	mustContain(t, out, "Branch: feature (no upstream: not pushed yet)", "Base: main (origin/HEAD is not set",
		"add the feature", "+feature line", "f.txt | 1 +", "?? dirty.txt", "gh pr create --base main",
		"git push -u origin feature")
	mustNotContain(t, out, "base commit\n```")

	noGh := func(string) (string, error) { return "", exec.ErrNotFound }
	out = expand(t, "pr", Env{Dir: r.dir, LookPath: noGh})
	mustContain(t, out, "gh) is not installed", "ready to paste")
	mustNotContain(t, out, "gh pr create")

	// origin/HEAD wins over main.
	r.git("update-ref", "refs/remotes/origin/develop", "HEAD~1")
	r.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/develop")
	out = expand(t, "pr", Env{Dir: r.dir, LookPath: withGh})
	mustContain(t, out, "Base: origin/develop (origin/HEAD points to it)", "--base develop")
}

func TestPRWithoutBaseOrCommits(t *testing.T) {
	r := newRepo(t)
	s, _ := Lookup("pr")
	if _, err := s.Expand(context.Background(), Env{Dir: r.dir}); err == nil || !strings.Contains(err.Error(), "no commits") {
		t.Errorf("/pr without commits: %v", err)
	}
	r.git("checkout", "-q", "-b", "solo")
	r.write("f", "x\n")
	r.commit("only")
	if _, err := s.Expand(context.Background(), Env{Dir: r.dir}); err == nil || !strings.Contains(err.Error(), "no base branch") {
		t.Errorf("/pr without a base: %v", err)
	}
}

func TestUpdateConfigListsFilesWithTextAndErrors(t *testing.T) {
	r := newRepo(t)
	home := os.Getenv("HOME")
	t.Setenv("PINCER_HOME", filepath.Join(home, "pincer"))
	paths := config.PathsFrom(nil)
	if err := os.MkdirAll(paths.Config, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(paths.UserConfig, []byte("default_model = \"openai/x\"\napi_key = \"sk-live-123\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r.write(".claude/settings.json", "{\"permissions\": {\"allow\": [\"Bash(ls)\"]\n")
	out := expand(t, "update-config", Env{Dir: r.dir, Paths: paths, Args: "allow go test"})
	mustContain(t, out, paths.UserConfig, `default_model = "openai/x"`, `api_key = "<redacted>"`,
		filepath.Join(r.dir, ".pincer", "config.toml"), "Does not exist yet", "Does not parse now: ",
		`"Bash(ls)"`, "allow go test", "ConfigEdit")
	mustNotContain(t, out, "sk-live-123")
}

func TestRedactConfig(t *testing.T) {
	for in, want := range map[string]string{
		`api_key = "sk-1"`:                       `api_key = "<redacted>"`,
		`  "Authorization": "Bearer abc",`:       `  "Authorization": "<redacted>",`,
		`token="${GITHUB_TOKEN}"`:                `token="${GITHUB_TOKEN}"`,
		`api_key = ""`:                           `api_key = ""`,
		`model = "x"`:                            `model = "x"`,
		`KEY_PASSWORD = "a\"b"`:                  `KEY_PASSWORD = "<redacted>"`,
		`keys.submit = "ctrl+s"`:                 `keys.submit = "ctrl+s"`,
		`mcp.servers.gh.headers.x-api-key = "k"`: `mcp.servers.gh.headers.x-api-key = "<redacted>"`,
		"x = 1\nsecret = \"s\"\n":                "x = 1\nsecret = \"<redacted>\"\n",
		`description = "mentions a token here"`:  `description = "mentions a token here"`,
	} {
		if got := RedactConfig(in); got != want {
			t.Errorf("RedactConfig(%q) = %q, want %q", in, got, want)
		}
	}
}
