package checkpoint

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"pincer/tools"
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

// walk scans root (a clean absolute directory), calling visit with every
// regular file and symlink (not followed) by workspace-relative slash path
// and its lstat, in walk order, and dir (when not nil) with every directory
// it descends into but the root, and returns what was noted, not tracked.
// Skipped and noted: .git, directories .gitignore files ignore ("dir/:
// ignored"), protected paths (skip reports why). Ignored files are skipped
// without a note; other file types (sockets, FIFOs, devices) too. A visit
// error stops the walk and is returned. The walk builds no map of the tree:
// one lstat per file is its cost (BenchmarkLstatTree is that floor).
func walk(root string, tracked trackedFiles, skip func(rel string) (why string, ok bool), visit func(rel string, st stat) error, dir func(rel string)) ([]string, error) {
	var noted []string
	matchers := map[string]gitignore.Matcher{}
	patterns := map[string][]gitignore.Pattern{}
	prefix := root
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == root {
				return err
			}
			return nil // a file gone or unreadable since the listing: not tracked
		}
		rel := "."
		if path != root {
			rel = filepath.ToSlash(strings.TrimPrefix(path, prefix))
		}
		if d.IsDir() {
			parent := filepath.Dir(path)
			if rel != "." {
				if d.Name() == ".git" {
					return filepath.SkipDir
				}
				if m := matchers[parent]; m != nil && m.Match(strings.Split(rel, "/"), true) && !tracked.holds(rel) {
					noted = append(noted, rel+"/: ignored")
					return filepath.SkipDir
				}
				if why, ok := skip(rel); ok {
					noted = append(noted, rel+"/: "+why)
					return filepath.SkipDir
				}
				if dir != nil {
					dir(rel)
				}
			}
			var domain []string
			if rel != "." {
				domain = strings.Split(rel, "/")
			}
			ps := patterns[parent]
			if own := readGitignore(path, domain); len(own) > 0 {
				ps = append(append([]gitignore.Pattern(nil), ps...), own...)
				matchers[path] = gitignore.NewMatcher(ps)
			} else if m := matchers[parent]; m != nil {
				matchers[path] = m // the parent's patterns, the parent's matcher
			}
			if len(ps) > 0 {
				patterns[path] = ps
			}
			return nil
		}
		t := d.Type()
		if t&^fs.ModeSymlink != 0 || d.Name() == ".git" { // not a regular file or a symlink; a worktree's .git file
			return nil
		}
		if len(matchers) > 0 { // a .gitignore seen: match the file (no lookup, no split otherwise)
			if m := matchers[filepath.Dir(path)]; m != nil && m.Match(strings.Split(rel, "/"), false) && !tracked.has(rel) {
				return nil
			}
		}
		if why, ok := skip(rel); ok {
			noted = append(noted, rel+": "+why)
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		return visit(rel, statOf(fi))
	})
	return noted, err
}

// readGitignore parses dir/.gitignore with domain (dir's path from the root).
func readGitignore(dir string, domain []string) []gitignore.Pattern {
	data, err := os.ReadFile(filepath.Join(dir, ".gitignore"))
	if err != nil {
		return nil
	}
	return tools.ParseGitignore(data, domain)
}
