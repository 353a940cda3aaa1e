package builtin

import (
	"pincer/core/prompt"

	"context"
	"fmt"
	"strings"
)

// Change is the change /review and /simplify look at: the working tree's
// uncommitted changes, or a ref range the person named.
type Change struct {
	// What says in words which change it is: "the uncommitted changes (git diff HEAD)",
	// "main..HEAD".
	What string
	// Range is the validated range or ref ("" for the working tree).
	Range string
	// Commits lists the range's commits (oneline), none for the working tree.
	Commits []string
	// Stat is `git diff --stat` of the change.
	Stat string
	// Diff is the change's diff, cut at MaxDiffBytes.
	Diff Diff
	// Untracked are new files git does not track yet (working tree only): their
	// content is not in the diff.
	Untracked []string
}

// changeData is what /review and /simplify fill their templates with.
type changeData struct {
	Change
	Focus string // the rest of the person's words
}

var reviewSkill = Skill{
	Name:         "review",
	Description:  "Review the uncommitted changes, or a ref range (/review main..HEAD)",
	ArgumentHint: "[REF | A..B | A...B] [focus]",
	Gathers:      "the working-tree diff against HEAD (or the given range's log, diff stat and diff, cut at 40 KB), untracked files",
	gather:       gatherChangeData,
}

var simplifySkill = Skill{
	Name:         "simplify",
	Description:  "Look at the current change for duplication and needless complexity, then fix it",
	ArgumentHint: "[REF | A..B | A...B] [focus]",
	Gathers:      "the same change as /review: the working-tree diff (or a given range), untracked files",
	gather:       gatherChangeData,
}

func gatherChangeData(ctx context.Context, env Env) (any, error) {
	c, focus, err := gatherChange(ctx, prompt.NewOwnGit(ctx, env.Dir), env.Args)
	return changeData{Change: c, Focus: focus}, err
}

// splitRange takes the range from the front of args: its first word when
// that word holds ".." (then it must be a valid range) or, checked by isRef,
// names a commit; the rest is the focus. ok is false when args names no range.
func splitRange(args string, isRef func(string) bool) (rng, focus string, ok bool) {
	first, rest, _ := strings.Cut(strings.TrimSpace(args), " ")
	if first == "" {
		return "", "", false
	}
	if strings.Contains(first, "..") || isRef(first) {
		return first, strings.TrimSpace(rest), true
	}
	return "", strings.TrimSpace(args), false
}

// rangeEnds splits a range "A..B" or "A...B" into its ends (an empty end is
// HEAD, as git reads it) and the operator; a single ref is itself with op "".
func rangeEnds(rng string) (a, b, op string) {
	for _, op := range []string{"...", ".."} {
		if l, r, ok := strings.Cut(rng, op); ok {
			return l, r, op
		}
	}
	return rng, "", ""
}

// validRefText reports whether s may be handed to git as a revision: no
// leading '-', no whitespace or control characters, none of the characters
// git's revision syntax would read as more than a name (`:` paths, `@{`
// reflog, `^{` peeling stays allowed only as ^ and ~ suffixes), at most 200
// bytes. git itself then decides whether it names a commit.
func validRefText(s string) bool {
	if s == "" || len(s) > 200 || strings.HasPrefix(s, "-") || strings.Contains(s, "..") {
		return false
	}
	for _, r := range s {
		switch {
		case r <= ' ' || r == 0x7f:
			return false
		case strings.ContainsRune(":?*[\\{}'\"`$;|&<>()!", r):
			return false
		}
	}
	return true
}

// gatherChange collects the change args name (its first word as a range or
// ref, see splitRange; none: the working tree) in g's repository,
// and returns the rest of args as the focus.
func gatherChange(ctx context.Context, g *prompt.OwnGit, args string) (Change, string, error) {
	if _, err := repoRoot(ctx, g); err != nil {
		return Change{}, "", err
	}
	rng, focus, ok := splitRange(args, func(w string) bool { return validRefText(w) && isCommit(ctx, g, w) })
	if !ok {
		c, err := workingTreeChange(ctx, g)
		return c, focus, err
	}
	a, b, op := rangeEnds(rng)
	for _, end := range []string{a, b} {
		if end == "" {
			continue
		}
		if !validRefText(end) {
			return Change{}, "", fmt.Errorf("%q is not a ref or range (use REF, A..B or A...B)", rng)
		}
		if !isCommit(ctx, g, end) {
			return Change{}, "", fmt.Errorf("%q names no commit in this repository", end)
		}
	}
	if op == "" && a == "" || op != "" && a == "" && b == "" {
		return Change{}, "", fmt.Errorf("%q is not a ref or range (use REF, A..B or A...B)", rng)
	}
	c := Change{Range: rng, What: rng}
	if op == "" {
		// One ref: what changed since it, the working tree included (git diff REF).
		c.What = "the changes since " + rng + ", uncommitted ones included (git diff " + rng + ")"
		commits, err := oneline(ctx, g, maxLogLines, rng+"..HEAD")
		if err != nil {
			return Change{}, "", err
		}
		c.Commits = commits
	} else {
		commits, err := oneline(ctx, g, maxLogLines, rng)
		if err != nil {
			return Change{}, "", err
		}
		c.Commits = commits
	}
	stat, err := g.Run(ctx, diffArgs("--stat", "--end-of-options", rng, "--")...)
	if err != nil {
		return Change{}, "", err
	}
	c.Stat = strings.TrimRight(stat, "\n")
	diff, err := g.Run(ctx, diffArgs("--end-of-options", rng, "--")...)
	if err != nil {
		return Change{}, "", err
	}
	c.Diff = cutDiff(diff, "git diff "+rng)
	return c, focus, nil
}

// isCommit reports whether rev (already validRefText) names a commit.
func isCommit(ctx context.Context, g *prompt.OwnGit, rev string) bool {
	_, err := g.Run(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	return err == nil
}

// workingTreeChange is the uncommitted change: staged and unstaged against
// HEAD (against nothing in a repository without commits) and the untracked files.
func workingTreeChange(ctx context.Context, g *prompt.OwnGit) (Change, error) {
	c := Change{What: "the uncommitted changes, staged and unstaged (git diff HEAD)"}
	base := []string{"HEAD"}
	rerun := "git diff HEAD"
	if !hasCommits(ctx, g) {
		// No HEAD yet: against the empty tree, which git diff TREE compares with
		// the working tree's tracked files, staged or not.
		out, err := g.Run(ctx, "hash-object", "-t", "tree", "/dev/null")
		if err != nil {
			return Change{}, err
		}
		empty := strings.TrimSpace(out)
		c.What = "the changes of a repository without commits yet, staged and unstaged (git diff " + empty + ", the empty tree)"
		base = []string{empty}
		rerun = "git diff " + empty
	}
	stat, err := g.Run(ctx, diffArgs(append([]string{"--stat"}, base...)...)...)
	if err != nil {
		return Change{}, err
	}
	c.Stat = strings.TrimRight(stat, "\n")
	diff, err := g.Run(ctx, diffArgs(base...)...)
	if err != nil {
		return Change{}, err
	}
	c.Diff = cutDiff(diff, rerun)
	out, err := g.Run(ctx, "ls-files", "--others", "--exclude-standard", "--full-name", "-z")
	if err != nil {
		return Change{}, err
	}
	for _, p := range strings.Split(out, "\x00") {
		if p != "" {
			c.Untracked = append(c.Untracked, p)
		}
	}
	return c, nil
}
