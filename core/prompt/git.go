package prompt

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"pincer/sandbox"
)

// Git limits.
const (
	// GitTimeout bounds all the git commands DetectGit runs together.
	GitTimeout = 2 * time.Second
	// MaxStatusLines is how many lines of `git status --short` the prompt shows.
	MaxStatusLines = 20
	// maxCommits is how many recent commits the prompt shows.
	maxCommits = 5
)

// GitInfo is what the prompt says about the repository around the working
// directory, as found when the prompt was built.
type GitInfo struct {
	// IsRepo reports whether the directory is inside a git work tree.
	IsRepo bool
	// Root is the top of the work tree.
	Root string
	// Branch is the current branch; empty when HEAD is detached.
	Branch string
	// Upstream is what git says after "...": "origin/main [ahead 1]".
	Upstream string
	// Status are the first MaxStatusLines lines of `git status --short`, with
	// paths relative to Root.
	Status []string
	// MoreStatus is how many status lines were left out.
	MoreStatus int
	// Commits are the most recent commits, `git log --oneline`.
	Commits []string
	// Incomplete reports that `git status` failed or timed out after the
	// repository was found, so Branch and Status are unknown.
	Incomplete bool
}

// DetectGit runs git in dir (all commands together within timeout) and returns
// what it found. Any failure before the repository is found — no git, not a
// repository, a timeout — means IsRepo is false.
func DetectGit(dir string, timeout time.Duration) GitInfo {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	root, err := runGit(ctx, dir, nil, "rev-parse", "--show-toplevel")
	if err != nil {
		return GitInfo{}
	}
	info := GitInfo{IsRepo: true, Root: strings.TrimSpace(root)}
	gitEnv := sandbox.GitSafeEnvFor(ctx, dir)
	status, err := runGit(ctx, dir, gitEnv, "-c", "status.relativePaths=false", "status", "--short", "--branch", "--ignore-submodules=all")
	if err != nil {
		info.Incomplete = true
		return info
	}
	info.Branch, info.Upstream, info.Status = parseStatus(status)
	if len(info.Status) > MaxStatusLines {
		info.MoreStatus = len(info.Status) - MaxStatusLines
		info.Status = info.Status[:MaxStatusLines]
	}
	// A repository without commits has no log: leave Commits empty.
	if log, err := runGit(ctx, dir, gitEnv, append(append([]string{"log", "--oneline", "--no-decorate", "--no-show-signature", "--no-mailmap"}, sandbox.GitSafeDiffArgs()...), fmt.Sprintf("-n%d", maxCommits))...); err == nil {
		info.Commits = nonEmptyLines(log)
	}
	return info
}

// runGit runs git with args in dir, without locks, prompts, pagers or
// translations, with every helper the repository's configuration can name
// switched off (sandbox.GitSafeArgs, --no-optional-locks, and gitEnv: the
// entries of sandbox.GitSafeEnvFor, which override the helpers the repository
// configures — its filter drivers, since `git status` runs a clean filter on
// every file whose stat data changed, textconv, diff.external...), in an
// environment without secrets (sandbox.OwnGitEnv), and returns its standard
// output. This git runs outside the sandbox on every model call, in a
// repository the model may have written to: nothing it starts may come from
// the repository. A driver the user's ~/.gitconfig defines (git-lfs) keeps
// working unless the repository redefines it.
func runGit(ctx context.Context, dir string, gitEnv []string, args ...string) (string, error) {
	full := append(sandbox.GitSafeArgs(), "-C", dir, "--no-optional-locks", "-c", "core.quotePath=off")
	full = append(full, args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	// A later entry wins (os/exec keeps the last of duplicate keys): gitEnv's
	// GIT_CONFIG_COUNT and numbering replace OwnGitEnv's.
	cmd.Env = append(sandbox.OwnGitEnv(os.Environ()), gitEnv...)
	cmd.WaitDelay = 200 * time.Millisecond
	out, err := cmd.Output()
	return string(out), err
}

// parseStatus splits the output of `git status --short --branch` into the branch,
// its upstream and the file lines.
func parseStatus(out string) (branch, upstream string, files []string) {
	lines := nonEmptyLines(out)
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "## ") {
		return "", "", lines
	}
	head := strings.TrimPrefix(lines[0], "## ")
	files = lines[1:]
	switch {
	case strings.HasPrefix(head, "No commits yet on "):
		return strings.TrimPrefix(head, "No commits yet on "), "", files
	case strings.HasPrefix(head, "Initial commit on "):
		return strings.TrimPrefix(head, "Initial commit on "), "", files
	case strings.HasPrefix(head, "HEAD (no branch)"):
		return "", "", files
	}
	branch, upstream, _ = strings.Cut(head, "...")
	if i := strings.Index(branch, " ["); i >= 0 { // "main [gone]" without an upstream name
		upstream = strings.TrimSpace(branch[i:])
		branch = branch[:i]
	}
	return branch, upstream, files
}

// nonEmptyLines splits s into lines, dropping empty ones and trailing CRs.
func nonEmptyLines(s string) []string {
	var out []string
	for line := range strings.Lines(s) {
		line = strings.TrimRight(line, "\r\n")
		if strings.TrimSpace(line) != "" {
			out = append(out, line)
		}
	}
	return out
}

// Text renders the git segment: empty when the directory is not a repository.
func (g GitInfo) Text() string {
	if !g.IsRepo {
		return ""
	}
	var b strings.Builder
	b.WriteString("# Git\n")
	b.WriteString("A snapshot from when this prompt was written; it does not update. Run `git status` for the current state.\n")
	if g.Incomplete {
		b.WriteString("Branch and status: unknown (git did not answer in time)\n")
		return b.String()
	}
	switch {
	case g.Branch == "":
		b.WriteString("Branch: none (detached HEAD)\n")
	case g.Upstream != "":
		fmt.Fprintf(&b, "Branch: %s (upstream %s)\n", g.Branch, g.Upstream)
	default:
		fmt.Fprintf(&b, "Branch: %s\n", g.Branch)
	}
	switch {
	case len(g.Status) > 0:
		b.WriteString("Status (git status --short, paths relative to the repository root):\n")
		for _, l := range g.Status {
			b.WriteString(l + "\n")
		}
		if g.MoreStatus > 0 {
			fmt.Fprintf(&b, "... and %d more\n", g.MoreStatus)
		}
	default:
		b.WriteString("Status: clean\n")
	}
	if len(g.Commits) > 0 {
		b.WriteString("Recent commits:\n")
		for _, c := range g.Commits {
			b.WriteString(c + "\n")
		}
	}
	return b.String()
}
