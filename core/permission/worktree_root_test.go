package permission

import "testing"

// TestInWorktreeRoot: a worktree pincer made in PINCER_HOME/data/worktrees
// is writable by its own session; nothing else under PINCER_HOME is, and a
// workspace opened on PINCER_HOME itself or a project directory of the
// worktrees gets no exception.
func TestInWorktreeRoot(t *testing.T) {
	u := userDir{"/ph", whyUserConfig}
	wt := "/ph/data/worktrees/repo-1234/x"
	tests := []struct {
		name, path string
		roots      []string
		u          userDir
		want       bool
	}{
		{"own file", wt + "/main.go", []string{wt}, u, true},
		{"own subdir", wt + "/a/b.go", []string{"/repo", wt}, u, true},
		{"another worktree", "/ph/data/worktrees/repo-1234/y/main.go", []string{wt}, u, false},
		{"its record", "/ph/data/worktrees/repo-1234/x.json", []string{wt}, u, false},
		{"the config", "/ph/config.toml", []string{wt}, u, false},
		{"approvals", "/ph/data/mcp-approvals.json", []string{wt}, u, false},
		{"workspace is PINCER_HOME", "/ph/config.toml", []string{"/ph"}, u, false},
		{"workspace is the project dir", "/ph/data/worktrees/repo-1234/y/a", []string{"/ph/data/worktrees/repo-1234"}, u, false},
		{"workspace is worktrees", "/ph/data/worktrees/p/y/a", []string{"/ph/data/worktrees"}, u, false},
		{"dotdot", "/ph/data/worktrees/repo-1234/x/../y/a", []string{wt}, u, false},
		{"git user config", wt + "/a", []string{wt}, userDir{"/ph", whyUserGit}, false},
	}
	for _, tt := range tests {
		path := tt.path
		if tt.name == "dotdot" {
			path = "/ph/data/worktrees/repo-1234/y/a" // Protected cleans first
		}
		if got := inWorktreeRoot(path, tt.u, tt.roots); got != tt.want {
			t.Errorf("%s: inWorktreeRoot(%s, %v) = %v, want %v", tt.name, path, tt.roots, got, tt.want)
		}
	}
}
