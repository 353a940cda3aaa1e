package worktree

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"pincer/core/permission"
	"pincer/core/prompt"
	"pincer/sandbox"
)

// maxCountBytes is the largest untracked file whose lines DiffStat counts;
// a larger one counts as binary (changed, no line counts).
const maxCountBytes = 8 << 20

// FileStat is one changed file of a DiffStat.
type FileStat struct {
	// Path is relative to the worktree's top, slash-separated.
	Path string `json:"path"`
	// Added and Deleted are line counts (0 for a binary file).
	Added   int `json:"added"`
	Deleted int `json:"deleted"`
	// Binary: git (or, for an untracked file, a NUL byte or its size) says
	// it is not text.
	Binary bool `json:"binary,omitempty"`
	// Untracked: a new file not added to git yet.
	Untracked bool `json:"untracked,omitempty"`
	// Protected says why the file is a protected path (core/permission's
	// ProtectedPaths: git's configuration, .pincer/, .claude/, .mcp.json,
	// the instruction files, ...), "" when it is not: merging such a change
	// changes what the main checkout's next session trusts or is told.
	Protected string `json:"protected,omitempty"`
}

// Stat is what a worktree changed against its Base: committed, staged and
// unstaged changes of tracked files and the untracked files (not ignored),
// as `git diff --stat BASE` plus the untracked files counted as added.
type Stat struct {
	Files      []FileStat `json:"files"`
	Insertions int        `json:"insertions"`
	Deletions  int        `json:"deletions"`
}

// ProtectedFiles are the paths of the changed files that are protected
// paths (FileStat.Protected), in order.
func (s Stat) ProtectedFiles() []string {
	var out []string
	for _, f := range s.Files {
		if f.Protected != "" {
			out = append(out, f.Path)
		}
	}
	return out
}

// Empty reports that nothing changed.
func (s Stat) Empty() bool { return len(s.Files) == 0 }

// String is git's summary line: "3 files changed, 10 insertions(+), 2
// deletions(-)"; "no changes" when Empty.
func (s Stat) String() string {
	if s.Empty() {
		return "no changes"
	}
	out := plural(len(s.Files), "file") + " changed"
	if s.Insertions > 0 || s.Deletions == 0 {
		out += ", " + plural(s.Insertions, "insertion") + "(+)"
	}
	if s.Deletions > 0 {
		out += ", " + plural(s.Deletions, "deletion") + "(-)"
	}
	return out
}

// Lines is the summary followed by one " PATH | +A -D" line per file (at
// most limit files, then "… and N more"; limit <= 0: all): the diff stat a
// subagent's result and `/worktrees` show.
func (s Stat) Lines(limit int) string {
	var b strings.Builder
	b.WriteString(s.String())
	for i, f := range s.Files {
		if limit > 0 && i == limit {
			fmt.Fprintf(&b, "\n … and %d more", len(s.Files)-limit)
			break
		}
		switch {
		case f.Binary:
			fmt.Fprintf(&b, "\n %s | binary", f.Path)
		default:
			fmt.Fprintf(&b, "\n %s | +%d -%d", f.Path, f.Added, f.Deleted)
		}
		if f.Untracked {
			b.WriteString(" (new, untracked)")
		}
		if f.Protected != "" {
			b.WriteString(" (protected: " + f.Protected + ")")
		}
	}
	return b.String()
}

// plural is "1 file" / "2 files".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// DiffStat measures what wt changed against wt.Base (see Stat), with
// pincer's own git. Rename detection is off: a renamed file is one deletion
// and one addition.
func DiffStat(ctx context.Context, wt Worktree) (Stat, error) {
	g := prompt.NewOwnGit(ctx, wt.Path)
	args := append([]string{"diff"}, sandbox.GitSafeDiffArgs()...)
	args = append(args, "--numstat", "-z", "--no-renames", "--end-of-options", wt.Base, "--")
	out, err := g.Run(ctx, args...)
	if err != nil {
		return Stat{}, fmt.Errorf("worktree %s: diff stat: %w", wt.Name, err)
	}
	st := Stat{Files: parseNumstat(out)}
	untracked, err := g.Run(ctx, "ls-files", "-z", "--others", "--exclude-standard", "--full-name")
	if err != nil {
		return Stat{}, fmt.Errorf("worktree %s: untracked files: %w", wt.Name, err)
	}
	for _, p := range strings.Split(untracked, "\x00") {
		if p != "" {
			st.Files = append(st.Files, countUntracked(wt.Path, p))
		}
	}
	for i, f := range st.Files {
		st.Insertions += f.Added
		st.Deletions += f.Deleted
		st.Files[i].Protected, _ = permission.Protected(filepath.Join(wt.Path, filepath.FromSlash(f.Path)), []string{wt.Path})
	}
	return st, nil
}

// parseNumstat reads `git diff --numstat -z --no-renames`: per file
// "ADDED\tDELETED\tPATH\0", "-\t-\tPATH\0" for a binary file.
func parseNumstat(out string) []FileStat {
	var files []FileStat
	for _, rec := range strings.Split(out, "\x00") {
		a, rest, ok := strings.Cut(rec, "\t")
		if !ok {
			continue
		}
		d, path, ok := strings.Cut(rest, "\t")
		if !ok || path == "" {
			continue
		}
		f := FileStat{Path: path}
		if a == "-" && d == "-" {
			f.Binary = true
		} else {
			f.Added, _ = strconv.Atoi(a)
			f.Deleted, _ = strconv.Atoi(d)
		}
		files = append(files, f)
	}
	return files
}

// countUntracked counts the lines of the untracked file rel under top as
// git would add them: a symbolic link is one line, a file with a NUL byte
// (or larger than maxCountBytes, or unreadable) binary.
func countUntracked(top, rel string) FileStat {
	f := FileStat{Path: rel, Untracked: true}
	p := filepath.Join(top, filepath.FromSlash(rel))
	fi, err := os.Lstat(p)
	switch {
	case err != nil:
		f.Binary = true
		return f
	case fi.Mode()&os.ModeSymlink != 0:
		f.Added = 1
		return f
	case !fi.Mode().IsRegular() || fi.Size() > maxCountBytes:
		f.Binary = true
		return f
	}
	file, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		f.Binary = true
		return f
	}
	defer file.Close()
	b, err := io.ReadAll(io.LimitReader(file, maxCountBytes+1))
	if err != nil || bytes.IndexByte(b, 0) >= 0 {
		f.Binary = true
		return f
	}
	f.Added = bytes.Count(b, []byte{'\n'})
	if len(b) > 0 && b[len(b)-1] != '\n' {
		f.Added++
	}
	return f
}
