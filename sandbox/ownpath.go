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
// ownPATHDropped are the entries any TrustOwnPATH call left out;
// knownCacheDirs the toolchain caches once toolchainCacheDirs found them.
var (
	ownPATH        sync.Mutex
	ownPATHApplied atomic.Bool
	ownPATHDropped = map[string]bool{}
	knownCacheDirs atomic.Pointer[[]cacheDir]
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

// setOwnPATH sets this process's PATH to the person's without every entry a
// TrustOwnPATH call left out (cumulative: a later call, Prepare's under the
// run's own workspace, leaves out more, never puts back what an earlier one
// left out) and returns those entries.
func setOwnPATH() (dropped []string) {
	var keep []string
	for _, d := range filepath.SplitList(personPATH) {
		if ownPATHDropped[d] {
			dropped = append(dropped, d)
		} else {
			keep = append(keep, d)
		}
	}
	_ = os.Setenv("PATH", joinPATH(keep))
	ownPATHApplied.Store(true)
	return dropped
}

// noteCacheDirs leaves out of pincer's own PATH, once TrustOwnPATH has
// trimmed it, the entries in the toolchain caches dirs (as `go env` and the
// environment name them; a read-only path of one stays), and remembers dirs
// for later TrustOwnPATH calls. toolchainCacheDirs calls it when it has
// found them.
func noteCacheDirs(dirs []cacheDir) {
	knownCacheDirs.Store(&dirs)
	if !ownPATHApplied.Load() {
		return
	}
	ownPATH.Lock()
	defer ownPATH.Unlock()
	trees := cacheTrees(dirs)
	_, out := ownPATHEntries(personPATH, trees, newPathGuard(treePaths(trees)))
	for _, d := range out {
		ownPATHDropped[d] = true
	}
	setOwnPATH()
}

// cacheTrees are dirs as writable trees, unresolved, with their read-only
// entries.
func cacheTrees(dirs []cacheDir) []treeSpec {
	out := make([]treeSpec, 0, len(dirs))
	for _, c := range dirs {
		t := treeSpec{Path: c.path}
		for _, r := range c.readOnly {
			t.ReadOnly = append(t.ReadOnly, filepath.Join(c.path, r))
		}
		out = append(out, t)
	}
	return out
}
