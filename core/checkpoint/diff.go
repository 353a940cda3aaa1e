package checkpoint

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"unicode/utf8"

	"pincer/core/message"
	"pincer/persist"
	"pincer/tools"
)

// Change is what a span of checkpoints did to one file: its version before
// the first of them and after the last.
type Change struct {
	Path          string
	Before, After persist.FileVersion
}

// Combine folds checkpoints (in Seq order) into one Change per path, sorted
// by path; a file changed and changed back is left out.
func Combine(cps []persist.Checkpoint) []Change {
	byPath := map[string]*Change{}
	for _, c := range cps {
		for _, f := range c.Files {
			if ch, ok := byPath[f.Path]; ok {
				ch.After = f.After
			} else {
				byPath[f.Path] = &Change{Path: f.Path, Before: f.Before, After: f.After}
			}
		}
	}
	var out []Change
	for _, ch := range byPath {
		if !sameVersion(ch.Before, ch.After) {
			out = append(out, *ch)
		}
	}
	slices.SortFunc(out, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// Turns are a session's turns in order (turn N is Turns[N-1]): the distinct
// TurnIDs of its transcript, by first appearance.
func Turns(msgs []message.Message) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range msgs {
		if m.TurnID != "" && !seen[m.TurnID] {
			seen[m.TurnID] = true
			out = append(out, m.TurnID)
		}
	}
	return out
}

// OfTurns are the checkpoints (of cps, in order) of the turns turnIDs.
func OfTurns(cps []persist.Checkpoint, turnIDs ...string) []persist.Checkpoint {
	var out []persist.Checkpoint
	for _, c := range cps {
		if slices.Contains(turnIDs, c.TurnID) {
			out = append(out, c)
		}
	}
	return out
}

// Diff renders changes as a git-style unified diff (`diff --git a/P b/P`
// headers, a name git would quote C-quoted as git does, "new file mode", "deleted file mode", "old mode"/"new mode"), which
// `git apply` takes; a binary file is one "Binary files ... differ" line and a
// version not stored one "# P: ..." line (git apply skips both as text
// between patches, so the rest still applies).
func Diff(ctx context.Context, s persist.CheckpointStore, changes []Change) (string, error) {
	var b strings.Builder
	for _, ch := range changes {
		if ch.Before.NotStored != "" || ch.After.NotStored != "" {
			fmt.Fprintf(&b, "# %s: changed, not shown (%s)\n", quoteName(ch.Path), ch.Before.NotStored+ch.After.NotStored)
			continue
		}
		before, err := content(ctx, s, ch.Before)
		if err != nil {
			return b.String(), err
		}
		after, err := content(ctx, s, ch.After)
		if err != nil {
			return b.String(), err
		}
		fileDiff(&b, ch.Path, ch.Before, ch.After, before, after)
	}
	return b.String(), nil
}

// fileDiff writes the git-style diff of one file at p from version before
// (content bc) to after (ac).
func fileDiff(b *strings.Builder, p string, before, after persist.FileVersion, bc, ac []byte) {
	oldLabel, newLabel := diffLabel("a/", p), diffLabel("b/", p)
	fmt.Fprintf(b, "diff --git %s %s\n", oldLabel, newLabel)
	switch {
	case before.Absent:
		fmt.Fprintf(b, "new file mode %s\n", gitMode(after.Mode))
		oldLabel = "/dev/null"
	case after.Absent:
		fmt.Fprintf(b, "deleted file mode %s\n", gitMode(before.Mode))
		newLabel = "/dev/null"
	case gitMode(before.Mode) != gitMode(after.Mode):
		fmt.Fprintf(b, "old mode %s\nnew mode %s\n", gitMode(before.Mode), gitMode(after.Mode))
	}
	if binary(bc) || binary(ac) {
		fmt.Fprintf(b, "Binary files %s and %s differ\n", oldLabel, newLabel)
		return
	}
	b.WriteString(tools.UnifiedDiff(oldLabel, newLabel, string(bc), string(ac)))
}

// content is a version's content ("" for a tombstone).
func content(ctx context.Context, s persist.CheckpointStore, v persist.FileVersion) ([]byte, error) {
	if v.Absent || v.Hash == "" {
		return nil, nil
	}
	return Blob(ctx, s, v.Hash)
}

// gitMode is the mode git writes for a file of mode m.
func gitMode(m uint32) string {
	mode := fs.FileMode(m)
	switch {
	case mode&fs.ModeSymlink != 0:
		return "120000"
	case mode&0o111 != 0:
		return "100755"
	}
	return "100644"
}

// binary reports content git would call binary: a NUL in the first 8000
// bytes (git's rule), or not UTF-8.
func binary(b []byte) bool {
	return bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0 || !utf8.Valid(b)
}
