package builtin

import (
	"context"
	"fmt"
	"strings"

	"pincer/core/prompt"
	"pincer/sandbox"
)

// MaxDiffBytes caps each diff an expansion includes (about 10,000 tokens);
// a longer one is cut at a line boundary and the cut says so.
const MaxDiffBytes = 40_000

// maxLogLines caps a `git log --oneline` listing.
const maxLogLines = 50

// diffArgs is `git diff` with no external diff program, no textconv and no
// color, then rest.
func diffArgs(rest ...string) []string {
	args := append([]string{"diff"}, sandbox.GitSafeDiffArgs()...)
	return append(append(args, "--no-color"), rest...)
}

// Diff is a diff as an expansion shows it.
type Diff struct {
	// Text is the diff, cut to MaxDiffBytes at a line boundary.
	Text string
	// Bytes is the whole diff's length.
	Bytes int
	// Cut is the note after a cut diff, "" when it is whole.
	Cut string
}

// cutDiff caps text at MaxDiffBytes; rerun is the command that shows it all.
func cutDiff(text, rerun string) Diff {
	d := Diff{Text: text, Bytes: len(text)}
	if len(text) <= MaxDiffBytes {
		return d
	}
	cut := text[:MaxDiffBytes]
	if i := strings.LastIndexByte(cut, '\n'); i > 0 {
		cut = cut[:i+1]
	}
	d.Text = cut
	d.Cut = fmt.Sprintf("[diff cut: %d of its %d bytes shown; run `%s` for the rest]", len(cut), len(text), rerun)
	return d
}

// repoRoot returns the top of the work tree around g's directory, or an error saying it
// is not a repository.
func repoRoot(ctx context.Context, g *prompt.OwnGit) (string, error) {
	out, err := g.Run(ctx, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", fmt.Errorf("not a git repository (%v)", err)
	}
	return strings.TrimSpace(out), nil
}

// hasCommits reports whether HEAD names a commit (false in a new repository).
func hasCommits(ctx context.Context, g *prompt.OwnGit) bool {
	_, err := g.Run(ctx, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	return err == nil
}

// branchName is the current branch, or "detached HEAD at SHA" (or "detached
// HEAD" with no commit to name).
func branchName(ctx context.Context, g *prompt.OwnGit) string {
	if out, err := g.Run(ctx, "symbolic-ref", "--quiet", "--short", "HEAD"); err == nil {
		return strings.TrimSpace(out)
	}
	if out, err := g.Run(ctx, "rev-parse", "--short", "HEAD"); err == nil {
		return "detached HEAD at " + strings.TrimSpace(out)
	}
	return "detached HEAD"
}

// oneline lists `git log --oneline` of revs (at most maxLogLines), newest first.
func oneline(ctx context.Context, g *prompt.OwnGit, n int, revs ...string) ([]string, error) {
	args := append([]string{"log", "--oneline", "--no-decorate", "--no-show-signature", "--no-mailmap", "--no-color",
		fmt.Sprintf("-n%d", n)}, sandbox.GitSafeDiffArgs()...)
	args = append(append(args, "--end-of-options"), revs...)
	out, err := g.Run(ctx, append(args, "--")...)
	if err != nil {
		return nil, err
	}
	return lines(out), nil
}

// statusShort is `git status --short` (untracked files listed one by one),
// paths relative to the repository root.
func statusShort(ctx context.Context, g *prompt.OwnGit) ([]string, error) {
	out, err := g.Run(ctx, "-c", "status.relativePaths=false", "status", "--short", "--untracked-files=all", "--ignore-submodules=all")
	if err != nil {
		return nil, err
	}
	return lines(out), nil
}

// lines splits s into its non-empty lines.
func lines(s string) []string {
	var out []string
	for l := range strings.Lines(s) {
		if l = strings.TrimRight(l, "\r\n"); strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}
