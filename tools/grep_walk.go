package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"pincer/sandbox"
)

// grepFilter decides which files the Go fallback searches, reproducing ripgrep's
// precedence (checked with rg 13): the --glob override first (a whitelisting
// match is searched whatever .gitignore and --type say; a "!" match is skipped,
// and so is everything under it), then .gitignore files, then the type.
type grepFilter struct {
	glob      string // without "!" and a trailing "/"; "" for none
	negated   bool   // the glob started with "!"
	anchored  bool   // the glob has a "/": matched against the path from the root
	dirOnly   bool   // the glob ended with "/"
	typeGlobs []string
}

// newGrepFilter parses q's glob; an invalid glob is an error.
func newGrepFilter(q *grepQuery) (*grepFilter, error) {
	f := &grepFilter{typeGlobs: q.typeGlobs}
	g := q.glob
	if g == "" {
		return f, nil
	}
	if strings.HasPrefix(g, "!") {
		f.negated, g = true, g[1:]
	}
	if strings.HasSuffix(g, "/") {
		f.dirOnly, g = true, strings.TrimSuffix(g, "/")
	}
	if strings.Contains(g, "/") {
		f.anchored, g = true, strings.TrimPrefix(g, "/")
	}
	if g == "" || !doublestar.ValidatePattern(g) {
		return nil, fmt.Errorf("invalid glob %q", q.glob)
	}
	f.glob = g
	return f, nil
}

// override returns +1 when the glob whitelists the entry, -1 when it excludes it,
// 0 when it says nothing. rel is the slash path from the workspace root.
func (f *grepFilter) override(rel, name string, isDir bool) int {
	if f.glob == "" || (f.dirOnly && !isDir) {
		return 0
	}
	subject := name
	if f.anchored {
		subject = rel
	}
	if !doublestar.MatchUnvalidated(f.glob, subject) {
		return 0
	}
	if f.negated {
		return -1
	}
	return 1
}

// typeOK reports whether a file name fits the type filter (if any).
func (f *grepFilter) typeOK(name string) bool {
	if f.typeGlobs == nil {
		return true
	}
	for _, g := range f.typeGlobs {
		if doublestar.MatchUnvalidated(g, name) {
			return true
		}
	}
	return false
}

// walkSearchFiles calls fn with the absolute path of every file q searches: the
// target itself when it is a file (no filter applies to a file named
// explicitly), else the regular files beneath it that pass the filter. .git
// directories and symlinks are skipped. .gitignore files apply from the top of
// the enclosing git work tree (or from the workspace root outside one) down, as
// git applies them. It stops early when fn returns false or ctx ends.
func walkSearchFiles(ctx context.Context, q *grepQuery, f *grepFilter, fn func(abs string) bool) error {
	if !q.targetDir {
		fn(q.target)
		return nil
	}
	top := gitTop(q.root)
	parts := splitRel(top, q.target)
	// .gitignore files of the directories between the top and the target.
	var patterns []gitignore.Pattern
	dir := top
	for i := range parts {
		patterns = append(patterns, readGitignore(q.ws, dir, parts[:i])...)
		dir = filepath.Join(dir, parts[i])
	}
	w := &searchWalk{ctx: ctx, ws: q.ws, filter: f, fn: fn, rootDepth: len(splitRel(top, q.root))}
	w.dir(q.target, parts, patterns)
	return ctx.Err()
}

// gitTop returns the nearest directory at or above root that holds a .git entry,
// or root when there is none.
func gitTop(root string) string {
	for dir := root; ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return root
		}
		dir = parent
	}
}

// splitRel returns the components of p relative to base (p at or beneath base).
func splitRel(base, p string) []string {
	rel, err := filepath.Rel(base, p)
	if err != nil || rel == "." {
		return nil
	}
	return strings.Split(filepath.ToSlash(rel), "/")
}

// searchWalk is one walk of walkSearchFiles. Paths are kept as components
// relative to the git top; the first rootDepth of them lead to the workspace
// root, against which globs are matched.
type searchWalk struct {
	ctx       context.Context
	ws        *sandbox.Workspace // every directory is read through it
	filter    *grepFilter
	fn        func(string) bool
	rootDepth int
	stopped   bool
}

// dir walks the directory abs, whose path from the top is parts, with the
// .gitignore patterns of its ancestors.
func (w *searchWalk) dir(abs string, parts []string, patterns []gitignore.Pattern) {
	entries, err := w.ws.ReadDir(abs) // a directory swapped for a link out fails here
	if err != nil {
		return // unreadable directories are skipped, as rg does
	}
	patterns = append(patterns[:len(patterns):len(patterns)], readGitignore(w.ws, abs, parts)...)
	matcher := gitignore.NewMatcher(patterns)
	for _, e := range entries {
		if w.stopped || w.ctx.Err() != nil {
			w.stopped = true
			return
		}
		name := e.Name()
		isDir := e.IsDir()
		if name == ".git" || (!isDir && !e.Type().IsRegular()) {
			continue // symlinks, sockets, devices
		}
		child := append(parts[:len(parts):len(parts)], name)
		switch w.filter.override(strings.Join(child[w.rootDepth:], "/"), name, isDir) {
		case -1:
			continue
		case 0:
			if !isDir && w.filter.glob != "" && !w.filter.negated {
				continue // a whitelist glob that this file does not match
			}
			if len(patterns) > 0 && matcher.Match(child, isDir) {
				continue
			}
			if !isDir && !w.filter.typeOK(name) {
				continue
			}
		}
		path := filepath.Join(abs, name)
		if isDir {
			w.dir(path, child, patterns)
		} else if !w.fn(path) {
			w.stopped = true
			return
		}
	}
}

// readGitignore parses dir/.gitignore; domain is dir's path from the root. A
// .gitignore inside ws is read through it; one above it (the top of an
// enclosing git work tree) directly, as it only narrows the search.
func readGitignore(ws *sandbox.Workspace, dir string, domain []string) []gitignore.Pattern {
	name := filepath.Join(dir, ".gitignore")
	var data []byte
	var err error
	if ws.Contains(name) {
		data, err = ws.ReadFile(name)
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return nil
	}
	return ParseGitignore(data, domain)
}
