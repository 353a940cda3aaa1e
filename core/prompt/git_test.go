package prompt

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseStatus(t *testing.T) {
	tests := []struct {
		name, out, branch, upstream string
		files                       []string
	}{
		{"plain", "## main\n", "main", "", nil},
		{"upstream", "## main...origin/main\n M a.go\n", "main", "origin/main", []string{" M a.go"}},
		{"ahead behind", "## dev...origin/dev [ahead 1, behind 2]\n?? x\n", "dev", "origin/dev [ahead 1, behind 2]", []string{"?? x"}},
		{"gone", "## dev...origin/dev [gone]\n", "dev", "origin/dev [gone]", nil},
		{"no commits", "## No commits yet on main\n?? a\n", "main", "", []string{"?? a"}},
		{"old initial", "## Initial commit on master\n", "master", "", nil},
		{"detached", "## HEAD (no branch)\nM  a\n", "", "", []string{"M  a"}},
		{"no header", " M a\r\n\n", "", "", []string{" M a"}},
		{"slash branch", "## feature/x...origin/feature/x\n", "feature/x", "origin/feature/x", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, u, f := parseStatus(tt.out)
			if b != tt.branch || u != tt.upstream || !slices.Equal(f, tt.files) {
				t.Errorf("parseStatus = %q, %q, %q; want %q, %q, %q", b, u, f, tt.branch, tt.upstream, tt.files)
			}
		})
	}
}

func TestGitText(t *testing.T) {
	tests := []struct {
		name string
		g    GitInfo
		has  []string
	}{
		{"not a repo", GitInfo{}, nil},
		{"clean", GitInfo{IsRepo: true, Branch: "main"}, []string{"Branch: main\n", "Status: clean"}},
		{"detached", GitInfo{IsRepo: true}, []string{"detached HEAD"}},
		{"more", GitInfo{IsRepo: true, Branch: "b", Status: []string{"?? a"}, MoreStatus: 7}, []string{"?? a\n... and 7 more"}},
		{"timed out", GitInfo{IsRepo: true, Incomplete: true}, []string{"unknown"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := tt.g.Text()
			if tt.has == nil && text != "" {
				t.Fatalf("Text = %q, want empty", text)
			}
			for _, s := range tt.has {
				if !strings.Contains(text, s) {
					t.Errorf("Text lacks %q:\n%s", s, text)
				}
			}
		})
	}
}

// git runs git in dir for a test, with a fixed identity and no user config.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Env = append(cmd.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestDetectGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo := t.TempDir()
	git(t, repo, "init", "-q", "-b", "trunk")

	info := DetectGit(repo, 5*time.Second)
	if !info.IsRepo || info.Branch != "trunk" || len(info.Commits) != 0 || info.Incomplete {
		t.Fatalf("fresh repo: %+v", info)
	}

	write(t, repo, "a.txt", "one\n")
	git(t, repo, "add", "a.txt")
	git(t, repo, "commit", "-q", "-m", "first commit")
	write(t, repo, "a.txt", "two\n")
	write(t, repo, "sub/new.txt", "x\n")
	info = DetectGit(filepath.Join(repo, "sub"), 5*time.Second)
	if !info.IsRepo || info.Branch != "trunk" {
		t.Fatalf("repo: %+v", info)
	}
	if real, _ := filepath.EvalSymlinks(repo); info.Root != real && info.Root != repo {
		t.Errorf("Root = %q, want %q", info.Root, repo)
	}
	if !slices.Equal(info.Status, []string{" M a.txt", "?? sub/"}) {
		t.Errorf("Status = %q", info.Status)
	}
	if len(info.Commits) != 1 || !strings.HasSuffix(info.Commits[0], " first commit") {
		t.Errorf("Commits = %q", info.Commits)
	}

	// The status is capped at MaxStatusLines.
	for i := range MaxStatusLines + 5 {
		write(t, repo, fmt.Sprintf("u%02d.txt", i), "x\n")
	}
	info = DetectGit(repo, 5*time.Second)
	if len(info.Status) != MaxStatusLines || info.MoreStatus != 7 { // 25 new files, a.txt and sub/
		t.Errorf("capped status: %d lines, %d more", len(info.Status), info.MoreStatus)
	}
	if !strings.Contains(info.Text(), "... and 7 more") {
		t.Errorf("Text lacks the overflow line:\n%s", info.Text())
	}

	if got := DetectGit(t.TempDir(), 5*time.Second); got.IsRepo {
		t.Errorf("plain directory detected as a repo: %+v", got)
	}
}
