package checkpoint

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// stat is what a scan compares of a file, as git's index does: size, mtime,
// inode and mode (the type bits included: a file turned into a symlink is a change).
type stat struct {
	Size    int64
	MtimeNs int64
	Ino     uint64
	Mode    fs.FileMode
}

// statOf is fi's stat.
func statOf(fi fs.FileInfo) stat {
	return stat{Size: fi.Size(), MtimeNs: fi.ModTime().UnixNano(), Ino: inode(fi), Mode: fi.Mode()}
}

// walkResult is one scan of the workspace: the stat of every tracked file by
// workspace-relative slash path, and what was noted, not tracked.
type walkResult struct {
	files map[string]stat
	noted []string
}

// walk scans root: regular files and symlinks (not followed) by relative
// path. Skipped and noted: .git, directories .gitignore files ignore
// ("dir/: ignored"), protected paths (skip reports why). Ignored files are
// skipped without a note; other file types (sockets, FIFOs, devices) too.
func walk(root string, skip func(rel string) (why string, ok bool)) (walkResult, error) {
	res := walkResult{files: map[string]stat{}}
	matchers := map[string]gitignore.Matcher{}
	patterns := map[string][]gitignore.Pattern{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == root {
				return err
			}
			return nil // a file gone or unreadable since the listing: not tracked
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		parent := filepath.Dir(path)
		if d.IsDir() {
			if rel != "." {
				if d.Name() == ".git" {
					return filepath.SkipDir
				}
				if m := matchers[parent]; m != nil && m.Match(strings.Split(rel, "/"), true) {
					res.noted = append(res.noted, rel+"/: ignored")
					return filepath.SkipDir
				}
				if why, ok := skip(rel); ok {
					res.noted = append(res.noted, rel+"/: "+why)
					return filepath.SkipDir
				}
			}
			var domain []string
			if rel != "." {
				domain = strings.Split(rel, "/")
			}
			ps := append(append([]gitignore.Pattern(nil), patterns[parent]...), readGitignore(path, domain)...)
			patterns[path] = ps
			if len(ps) > 0 {
				matchers[path] = gitignore.NewMatcher(ps)
			}
			return nil
		}
		t := d.Type()
		if t&^fs.ModeSymlink != 0 || d.Name() == ".git" { // not a regular file or a symlink; a worktree's .git file
			return nil
		}
		if m := matchers[parent]; m != nil && m.Match(strings.Split(rel, "/"), false) {
			return nil
		}
		if why, ok := skip(rel); ok {
			res.noted = append(res.noted, rel+": "+why)
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		res.files[rel] = statOf(fi)
		return nil
	})
	return res, err
}

// readGitignore parses dir/.gitignore with domain (dir's path from the root).
func readGitignore(dir string, domain []string) []gitignore.Pattern {
	data, err := os.ReadFile(filepath.Join(dir, ".gitignore"))
	if err != nil {
		return nil
	}
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}
