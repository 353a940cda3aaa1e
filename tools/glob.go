package tools

import (
	"cmp"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"pincer/sandbox"
)

//go:embed glob.md
var globDescription string

// GlobMaxResults is how many paths Glob returns at most.
const GlobMaxResults = 100

// GlobInput is the input of the Glob tool, as Claude Code's Glob.
type GlobInput struct {
	Pattern string `json:"pattern"`
	// Path is the directory to search; "" means the workspace root.
	Path string `json:"path,omitempty"`
}

const globSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "minLength": 1, "description": "Glob pattern matched against paths relative to path, e.g. \"**/*.go\" or \"src/**/*.{ts,tsx}\"."},
    "path": {"type": "string", "description": "Directory to search in, absolute or relative to the workspace root. Omit it to search the whole workspace."}
  },
  "required": ["pattern"],
  "additionalProperties": false
}`

// Glob is the file-name search tool, as Claude Code's Glob: doublestar patterns
// (`**`, `{a,b}`) matched against paths relative to the search directory, files
// only, `.git` skipped, symlinked directories not followed, newest first by
// modification time, at most GlobMaxResults paths (relative to the workspace root).
type Glob struct{}

// Spec describes Glob: KindRead, concurrency-safe.
func (Glob) Spec() Spec {
	return Spec{Name: "Glob", Description: globDescription, Schema: json.RawMessage(globSchema), Kind: KindRead, ConcurrencySafe: true}
}

// Summary returns "Glob PATTERN", with " in PATH" when a path is given.
func (Glob) Summary(in GlobInput) string {
	s := "Glob " + in.Pattern
	if in.Path != "" {
		s += " in " + summaryPath(in.Path)
	}
	return s
}

// Paths returns the resolved search directory.
func (Glob) Paths(env *Env, in GlobInput) []string {
	return pathsOf(env, cmp.Or(in.Path, "."))
}

// Run lists the matching files.
func (Glob) Run(ctx context.Context, env *Env, in GlobInput) (Result, error) {
	if err := checkEnv(env); err != nil {
		return Result{}, err
	}
	if in.Pattern == "" {
		return Result{}, errors.New("pattern is required")
	}
	ws, dir, err := resolveDir(env, cmp.Or(in.Path, "."))
	if err != nil {
		return Result{}, err
	}
	pattern := filepath.ToSlash(in.Pattern)
	if filepath.IsAbs(in.Pattern) {
		rel, err := filepath.Rel(dir, filepath.Clean(in.Pattern))
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			return Result{}, fmt.Errorf("pattern %s is outside the search directory %s: give a relative pattern", in.Pattern, dir)
		}
		pattern = filepath.ToSlash(rel)
	}
	pattern = strings.TrimPrefix(pattern, "./")
	if !doublestar.ValidatePattern(pattern) {
		return Result{}, fmt.Errorf("invalid glob pattern %q", in.Pattern)
	}
	files, err := globFiles(ctx, ws, dir, pattern)
	if err != nil {
		return Result{}, err
	}
	if env.ReadDenied != nil {
		kept := files[:0]
		for _, f := range files {
			if !env.readDenied(f.path) {
				kept = append(kept, f)
			}
		}
		files = kept
	}
	if len(files) == 0 {
		return Result{Output: "No files found"}, nil
	}
	sortNewestFirst(files)
	var b strings.Builder
	for i, f := range files {
		if i == GlobMaxResults {
			break
		}
		b.WriteString(displayPath(env, f.path) + "\n")
	}
	if len(files) > GlobMaxResults {
		fmt.Fprintf(&b, "(Results are truncated: showing first %d of %d. Use a more specific path or pattern.)\n", GlobMaxResults, len(files))
	}
	return Result{Output: strings.TrimSuffix(b.String(), "\n")}, nil
}

// fileHit is a found file and its modification time.
type fileHit struct {
	path    string // absolute
	modTime time.Time
}

// sortNewestFirst orders hits by modification time, newest first, then by path.
func sortNewestFirst(hits []fileHit) {
	sort.Slice(hits, func(i, j int) bool {
		if !hits[i].modTime.Equal(hits[j].modTime) {
			return hits[i].modTime.After(hits[j].modTime)
		}
		return hits[i].path < hits[j].path
	})
}

// globFiles walks dir (through ws, so that nothing swapped in during the walk
// leads out of it) and returns the files whose slash-separated path relative
// to dir matches pattern. Directories named .git are skipped and symlinked
// directories are not entered; a symlinked file counts when it names a regular
// file inside ws. When the pattern has no "**", directories deeper than the
// pattern are not entered either.
func globFiles(ctx context.Context, ws *sandbox.Workspace, dir, pattern string) ([]fileHit, error) {
	maxDepth := -1
	if !strings.Contains(pattern, "**") {
		maxDepth = strings.Count(pattern, "/") + 1
	}
	root, start, err := ws.RootFor(dir)
	if err != nil {
		return nil, err
	}
	fsys := root.FS()
	inOwn := ws.OwnDirCheck()
	var hits []fileHit
	err = fs.WalkDir(fsys, start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == start {
				return err
			}
			return nil // unreadable entries are skipped, as find and rg do
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if p == start {
			return nil
		}
		rel := p
		if start != "." {
			rel = strings.TrimPrefix(p, start+"/")
		}
		if _, own := inOwn(filepath.Join(dir, filepath.FromSlash(rel))); own {
			return skipEntry(d) // pincer's own directory inside the workspace: never listed
		}
		if d.IsDir() {
			if d.Name() == ".git" || (maxDepth >= 0 && strings.Count(rel, "/")+1 >= maxDepth) {
				return fs.SkipDir
			}
			return nil
		}
		if d.Name() == ".git" || !doublestar.MatchUnvalidated(pattern, rel) {
			return nil
		}
		info, err := fs.Stat(fsys, p) // follows a symlinked file while it stays inside
		if err != nil || !info.Mode().IsRegular() {
			return nil
		}
		hits = append(hits, fileHit{path: filepath.Join(dir, filepath.FromSlash(rel)), modTime: info.ModTime()})
		return nil
	})
	return hits, err
}

// skipEntry is what a WalkDir callback returns to leave d out: SkipDir for a
// directory, nil (nothing listed) for anything else.
func skipEntry(d fs.DirEntry) error {
	if d.IsDir() {
		return fs.SkipDir
	}
	return nil
}

// resolveDir resolves p (in the workspace, or an approved directory outside
// it: searchSpace) and checks that it is a directory. It returns the
// workspace to read it through and its real path.
func resolveDir(env *Env, p string) (*sandbox.Workspace, string, error) {
	ws, abs, err := searchSpace(env, p)
	if err != nil {
		return nil, "", err
	}
	fi, err := ws.Stat(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, "", fmt.Errorf("directory does not exist: %s", displayPath(env, abs))
		}
		return nil, "", err
	}
	if !fi.IsDir() {
		return nil, "", fmt.Errorf("%s is not a directory", displayPath(env, abs))
	}
	return ws, abs, nil
}

// relSlash returns p relative to dir (p beneath dir) with forward slashes.
func relSlash(dir, p string) string {
	rel, err := filepath.Rel(dir, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(rel)
}
