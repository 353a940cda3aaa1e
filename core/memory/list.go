package memory

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"pincer/core/smallfile"
)

// Entry is one memory file as /memory and `pincer memory list` show it:
// its scope, path and frontmatter, or Err when it does not parse (listed,
// never injected or rewritten).
type Entry struct {
	Scope string
	Path  string
	File  File
	Err   error
}

// List reads the memory files of paths (the user's, then the project's;
// each by name). A missing dir lists nothing.
func List(paths Paths) ([]Entry, error) {
	var out []Entry
	for _, d := range []struct{ scope, dir string }{{ScopeUser, paths.UserDir}, {ScopeProject, paths.ProjectDir}} {
		if d.dir == "" {
			continue
		}
		entries, err := os.ReadDir(d.dir)
		if err != nil && !os.IsNotExist(err) {
			return out, err
		}
		var names []string
		for _, e := range entries {
			n := e.Name()
			if e.Type().IsRegular() && strings.HasSuffix(n, ".md") && !strings.HasPrefix(n, ".") && n != ProjectIndexName {
				names = append(names, n)
			}
		}
		sort.Strings(names)
		for _, n := range names {
			path := filepath.Join(d.dir, n)
			e := Entry{Scope: d.scope, Path: path}
			data, err := smallfile.Read(path, 4*MaxContentBytes)
			if err == nil {
				e.File, err = ParseFile(path, data)
			}
			e.Err = err
			out = append(out, e)
		}
	}
	return out, nil
}
