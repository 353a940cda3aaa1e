package sandbox

import (
	"os"
	"path/filepath"
	"slices"
)

// grant is one Landlock write rule: a directory (the whole tree beneath it) or
// a single file.
type grant struct {
	path string
	dir  bool
}

// carve returns the write grants that make the tree at root writable except for
// the protected paths (absolute, clean) that lie in it.
//
// Landlock only adds rights, and a right granted on a directory holds for
// everything beneath it, so a read-only hole cannot be cut out of a writable
// tree. carve grants instead every sibling along the way down to each
// protected path: a directory with no protected path beneath it is granted
// whole; one with a protected path beneath it is not granted itself (so nothing
// can be created, removed or renamed directly in it) and carve descends into
// its entries; a protected path is skipped. Symlinks are never granted (a rule
// follows them, and could reach anywhere), nor are devices, sockets and fifos.
//
// The cost of soundness: the directories on the way (the workspace root, for
// ".pincer") get no new entries, and entries created after the sandbox starts
// are not writable.
func carve(root string, protected []string) []grant {
	fi, err := os.Stat(root)
	switch {
	case err != nil:
		return nil
	case !fi.IsDir():
		if !fi.Mode().IsRegular() || slices.Contains(protected, root) {
			return nil
		}
		return []grant{{path: root}}
	}
	var out []grant
	carveInto(&out, root, protected)
	return out
}

func carveInto(out *[]grant, dir string, protected []string) {
	if slices.Contains(protected, dir) {
		return
	}
	if !slices.ContainsFunc(protected, func(p string) bool { return within(dir, p) }) {
		*out = append(*out, grant{path: dir, dir: true})
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return // unreadable: grant nothing beneath it
	}
	for _, e := range entries {
		child := filepath.Join(dir, e.Name())
		switch {
		case e.Type()&os.ModeSymlink != 0:
			continue
		case e.IsDir():
			carveInto(out, child, protected)
		case e.Type().IsRegular():
			if !slices.Contains(protected, child) {
				*out = append(*out, grant{path: child})
			}
		}
	}
}

// treeGrants returns the write grants for all trees: each tree is carved around
// every protected path that is not already protected otherwise (by a read-only
// mount, listed in mounted), whichever tree it was declared in — trees may
// overlap (a workspace inside the temp dir), and a grant on the outer tree
// would otherwise reach into the inner one's protected paths.
func treeGrants(trees []treeSpec, mounted map[string]bool) []grant {
	var protected []string
	for _, t := range trees {
		for _, p := range t.ReadOnly {
			if !mounted[p] {
				protected = append(protected, p)
			}
		}
	}
	var out []grant
	for _, t := range trees {
		out = append(out, carve(t.Path, protected)...)
	}
	return out
}
