package worktree

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// git runs git in dir for a test's fixture (the test's own git, not
// pincer's) and returns its trimmed output.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	out, err := gitCmd(dir, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// gitCmd is the test's git command in dir with a fixed identity.
func gitCmd(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	return cmd
}

// newRepo makes a repository with one commit holding files (path -> text).
func newRepo(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	real, _ := filepath.EvalSymlinks(dir)
	git(t, real, "init", "-q", "-b", "main")
	git(t, real, "config", "user.name", "t")
	git(t, real, "config", "user.email", "t@t")
	for p, text := range files {
		write(t, filepath.Join(real, p), text)
	}
	git(t, real, "add", "-A")
	git(t, real, "commit", "-q", "-m", "first")
	return real
}

func write(t testing.TB, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCreateListOpen(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t, map[string]string{"a.txt": "one\n", "sub/b.txt": "two\n"})
	m := New(filepath.Join(t.TempDir(), "worktrees"))
	wt, err := m.Create(ctx, filepath.Join(repo, "sub"), "feature")
	if err != nil {
		t.Fatal(err)
	}
	if wt.Branch != "pincer/feature" || wt.Repo != repo || wt.Base != git(t, repo, "rev-parse", "HEAD") {
		t.Errorf("worktree = %+v", wt)
	}
	if !strings.HasPrefix(wt.Path, m.Root) {
		real, _ := filepath.EvalSymlinks(m.Root)
		if !strings.HasPrefix(wt.Path, real) {
			t.Errorf("path %s is not under %s", wt.Path, m.Root)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(wt.Path, "sub", "b.txt")); string(b) != "two\n" {
		t.Errorf("checkout has sub/b.txt = %q", b)
	}
	if got := git(t, wt.Path, "branch", "--show-current"); got != "pincer/feature" {
		t.Errorf("checked out %q", got)
	}
	if wt.GitDir != filepath.Join(repo, ".git", "worktrees", "feature") || wt.CommonDir != filepath.Join(repo, ".git") {
		t.Errorf("git dirs %s, %s", wt.GitDir, wt.CommonDir)
	}
	if _, err := m.Create(ctx, repo, "feature"); !errors.Is(err, ErrExists) {
		t.Errorf("second Create: %v, want ErrExists", err)
	}
	// From inside the worktree the repository is the main checkout.
	free, err := m.CreateFree(ctx, wt.Path, "feature")
	if err != nil || free.Name != "feature-2" {
		t.Fatalf("CreateFree = %+v, %v", free, err)
	}
	list, err := m.List(ctx, repo)
	if err != nil || len(list) != 2 || list[0].Name != "feature" || list[1].Name != "feature-2" {
		t.Fatalf("List = %+v, %v", list, err)
	}
	got, err := m.Open(ctx, repo, "feature")
	if err != nil || got.Path != wt.Path || got.Base != wt.Base {
		t.Errorf("Open = %+v, %v", got, err)
	}
	if _, err := m.Open(ctx, repo, "nosuch"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Open nosuch: %v", err)
	}
	// Another repository lists none of them.
	other := newRepo(t, map[string]string{"x": "x\n"})
	if l, err := m.List(ctx, other); err != nil || len(l) != 0 {
		t.Errorf("List of another repository = %+v, %v", l, err)
	}
}

func TestCreateRefuses(t *testing.T) {
	ctx := context.Background()
	m := New(t.TempDir())
	if _, err := m.Create(ctx, t.TempDir(), "x"); !errors.Is(err, ErrNotRepo) {
		t.Errorf("outside a repository: %v", err)
	}
	empty := t.TempDir()
	git(t, empty, "init", "-q")
	if _, err := m.Create(ctx, empty, "x"); !errors.Is(err, ErrNotRepo) {
		t.Errorf("no commit yet: %v", err)
	}
	repo := newRepo(t, map[string]string{"a": "a\n"})
	git(t, repo, "branch", "pincer/taken")
	if _, err := m.Create(ctx, repo, "taken"); !errors.Is(err, ErrExists) {
		t.Errorf("branch taken: %v", err)
	}
	for _, bad := range []string{"../x", "a/b", "-x", ".x", "x.lock", "a..b", ""} {
		if _, err := m.Create(ctx, repo, bad); err == nil {
			t.Errorf("Create(%q) made a worktree", bad)
		}
	}
}

func TestValidName(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"feature", true}, {"fix-1.2_b", true}, {"A", true}, {strings.Repeat("a", 64), true},
		{"", false}, {strings.Repeat("a", 65), false}, {"..", false}, {"../up", false}, {"a/b", false},
		{"-rf", false}, {"_x", false}, {".hidden", false}, {"x.", false}, {"x.lock", false}, {"a..b", false},
		{"a b", false}, {"a\x00b", false}, {"é", false}, {"a~1", false}, {"a^", false}, {"a:b", false},
		{"@{u}", false}, {"a\\b", false}, {"x\n", false},
	}
	for _, tt := range tests {
		if err := ValidName(tt.name); (err == nil) != tt.ok {
			t.Errorf("ValidName(%q) = %v, want ok %v", tt.name, err, tt.ok)
		}
	}
}

func TestDiffStat(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t, map[string]string{"a.txt": "one\ntwo\n", "gone.txt": "x\n"})
	m := New(t.TempDir())
	wt, err := m.Create(ctx, repo, "w")
	if err != nil {
		t.Fatal(err)
	}
	st, err := DiffStat(ctx, wt)
	if err != nil || !st.Empty() || st.String() != "no changes" {
		t.Fatalf("fresh DiffStat = %+v, %v", st, err)
	}
	// Committed, then uncommitted, then untracked.
	write(t, filepath.Join(wt.Path, "a.txt"), "one\n2\n3\n")
	git(t, wt.Path, "commit", "-q", "-am", "edit")
	if err := os.Remove(filepath.Join(wt.Path, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(wt.Path, "new", "n.txt"), "a\nb\nc")
	write(t, filepath.Join(wt.Path, "bin"), "a\x00b")
	write(t, filepath.Join(wt.Path, ".gitignore"), "ignored\n")
	write(t, filepath.Join(wt.Path, "ignored"), "zzz\n")
	st, err = DiffStat(ctx, wt)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]FileStat{}
	for _, f := range st.Files {
		byPath[f.Path] = f
	}
	want := map[string]FileStat{
		"a.txt":      {Path: "a.txt", Added: 2, Deleted: 1},
		"gone.txt":   {Path: "gone.txt", Deleted: 1},
		"new/n.txt":  {Path: "new/n.txt", Added: 3, Untracked: true},
		"bin":        {Path: "bin", Binary: true, Untracked: true},
		".gitignore": {Path: ".gitignore", Added: 1, Untracked: true},
	}
	if len(byPath) != len(want) {
		t.Errorf("files %+v, want %+v", st.Files, want)
	}
	for p, w := range want {
		if byPath[p] != w {
			t.Errorf("%s: %+v, want %+v", p, byPath[p], w)
		}
	}
	if st.String() != "5 files changed, 6 insertions(+), 2 deletions(-)" {
		t.Errorf("String = %q", st.String())
	}
	if l := st.Lines(2); !strings.Contains(l, "… and 3 more") {
		t.Errorf("Lines(2) = %q", l)
	}
	// The main checkout did not change.
	if b, _ := os.ReadFile(filepath.Join(repo, "a.txt")); string(b) != "one\ntwo\n" {
		t.Errorf("main checkout's a.txt = %q", b)
	}
}

func TestStatString(t *testing.T) {
	tests := []struct {
		s    Stat
		want string
	}{
		{Stat{}, "no changes"},
		{Stat{Files: []FileStat{{Path: "a", Added: 1}}, Insertions: 1}, "1 file changed, 1 insertion(+)"},
		{Stat{Files: []FileStat{{Path: "a", Deleted: 2}}, Deletions: 2}, "1 file changed, 2 deletions(-)"},
		{Stat{Files: []FileStat{{Path: "a", Binary: true}}}, "1 file changed, 0 insertions(+)"},
		{Stat{Files: make([]FileStat, 3), Insertions: 4, Deletions: 1}, "3 files changed, 4 insertions(+), 1 deletion(-)"},
	}
	for _, tt := range tests {
		if got := tt.s.String(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.s, got, tt.want)
		}
	}
}
