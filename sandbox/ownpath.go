package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
)

// personPATH is the PATH this process started with: what commands get
// (CommandEnvAllow), whatever TrustOwnPATH leaves pincer's own lookups.
var personPATH, personPATHSet = os.LookupEnv("PATH")

// ownPATH serialises TrustOwnPATH; ownPATHApplied is set once it changed
// this process's PATH.
// ownPATHDropped are the entries any TrustOwnPATH call left out.
var (
	ownPATH        sync.Mutex
	ownPATHApplied atomic.Bool
	ownPATHDropped = map[string]bool{}
)

// ownPATHEntries returns the entries of path (colon-separated) pincer may run
// its own programs from, and those it may not: relative entries, entries
// resolving through a symlink in a writable tree, and entries whose real
// directory lies in a writable tree (g's), unless in a read-only path of one
// of trees (CARGO_HOME/bin). Pure but for the file system's links.
func ownPATHEntries(path string, trees []treeSpec, g pathGuard) (keep, dropped []string) {
	for _, dir := range filepath.SplitList(path) {
		if !filepath.IsAbs(dir) {
			dropped = append(dropped, dir)
			continue
		}
		real, err := g.walk(dir)
		if err != nil {
			dropped = append(dropped, dir)
			continue
		}
		if _, in := g.writableTree(real); in && !readOnlyIn(trees, real) {
			dropped = append(dropped, dir)
			continue
		}
		keep = append(keep, dir)
	}
	return keep, dropped
}

// readOnlyIn reports whether p lies in a read-only path of one of trees.
func readOnlyIn(trees []treeSpec, p string) bool {
	for _, t := range trees {
		for _, ro := range t.ReadOnly {
			if within(ro, p) {
				return true
			}
		}
	}
	return false
}

// joinPATH joins PATH entries.
func joinPATH(dirs []string) string {
	return strings.Join(dirs, string(filepath.ListSeparator))
}
