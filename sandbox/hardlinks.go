package sandbox

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
)

// Hard links to hidden files (issue 12, round 2). A symlink in the workspace
// to ~/.ssh/id_rsa is resolved and refused; a hard link is another name of
// the same inode, with nothing to resolve. The sandbox cannot make one (it
// hides the file), but one made outside pincer may be in the workspace. So a
// regular file with more than one link is compared, by device and inode, with
// the regular files of the hidden paths (DefaultHiddenPaths) — small
// directories, walked once per process and set of hidden paths, lazily (only
// when such a file is met), at most HiddenWalkCap entries.

// HiddenWalkCap bounds the entries (files and directories) one walk of the
// hidden paths looks at. A hidden directory the walk did not finish is
// remembered by its device: a multiply-linked file on that device is
// LinkUnknown.
const HiddenWalkCap = 10000

// LinkVerdict is what HardLinkToHidden found.
type LinkVerdict int

const (
	// LinkNone: not a regular file with more than one link, or none of its
	// names is a hidden file the walk saw (and no unfinished hidden directory
	// is on its device).
	LinkNone LinkVerdict = iota
	// LinkHidden: the same file (device and inode) as a hidden one.
	LinkHidden
	// LinkUnknown: more than one link, on the device of a hidden directory the
	// walk did not finish (HiddenWalkCap): it may be a hidden file.
	LinkUnknown
)

// fileID is a file's identity: its device and inode numbers.
type fileID struct{ dev, ino uint64 }

// hiddenIndex is one walk of a set of hidden paths.
type hiddenIndex struct {
	files      map[fileID]string // regular files seen -> their hidden path
	unfinished map[uint64]string // device -> a hidden directory not walked to its end
}

var (
	hiddenIndexMu sync.Mutex
	hiddenIndexes = map[string]*hiddenIndex{} // key: the hidden paths joined by NUL
)

// HardLinkToHidden reports whether fi (from a stat of the file, not of a
// symlink to it) is a regular file with more than one link that is, or may
// be, a file the sandbox hides; the second result names the hidden file (for
// LinkHidden) or the unfinished hidden directory (for LinkUnknown). The first
// call for a set of DefaultHiddenPaths walks them; later ones reuse the walk
// (a hidden file created since is not known to it). Safe for concurrent use.
func HardLinkToHidden(fi fs.FileInfo) (LinkVerdict, string) {
	return hardLinkTo(fi, DefaultHiddenPaths())
}

// hardLinkTo is HardLinkToHidden against the hidden paths given.
func hardLinkTo(fi fs.FileInfo, hidden []string) (LinkVerdict, string) {
	if _, ok := multiLinked(fi); !ok {
		return LinkNone, "" // the common case: no walk
	}
	return indexOf(hidden).verdict(fi)
}

// verdict is hardLinkTo against this walk.
func (idx *hiddenIndex) verdict(fi fs.FileInfo) (LinkVerdict, string) {
	id, ok := multiLinked(fi)
	if !ok {
		return LinkNone, ""
	}
	if h, ok := idx.files[id]; ok {
		return LinkHidden, h
	}
	if d, ok := idx.unfinished[id.dev]; ok {
		return LinkUnknown, d
	}
	return LinkNone, ""
}

// multiLinked returns fi's identity when it is a regular file with more than
// one link.
func multiLinked(fi fs.FileInfo) (fileID, bool) {
	if fi == nil || !fi.Mode().IsRegular() {
		return fileID{}, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || uint64(st.Nlink) < 2 {
		return fileID{}, false
	}
	return fileID{uint64(st.Dev), uint64(st.Ino)}, true
}

// indexOf returns the walk of hidden, walking it the first time. At most 32
// sets are kept (a process changes $HOME rarely; tests do it often).
func indexOf(hidden []string) *hiddenIndex {
	key := strings.Join(hidden, "\x00")
	hiddenIndexMu.Lock()
	defer hiddenIndexMu.Unlock()
	if idx, ok := hiddenIndexes[key]; ok {
		return idx
	}
	if len(hiddenIndexes) >= 32 {
		clear(hiddenIndexes)
	}
	idx := walkHidden(hidden, HiddenWalkCap)
	hiddenIndexes[key] = idx
	return idx
}

// walkHidden records the regular files of hidden (each path followed if it
// is a symlink, nothing below it followed), looking at no more than limit
// entries; a directory cut short, and every one after it, goes to unfinished.
func walkHidden(hidden []string, limit int) *hiddenIndex {
	idx := &hiddenIndex{files: map[fileID]string{}, unfinished: map[uint64]string{}}
	seen := 0
	for _, h := range hidden {
		fi, err := os.Stat(h)
		if err != nil {
			continue
		}
		if !fi.IsDir() {
			seen++
			if id, ok := identity(fi); ok && fi.Mode().IsRegular() {
				idx.files[id] = h
			}
			continue
		}
		if seen >= limit {
			idx.markUnfinished(fi, h)
			continue
		}
		root := h
		if r, err := filepath.EvalSymlinks(h); err == nil {
			root = r
		}
		cut := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // an unreadable entry: the sandboxed command cannot read it either
			}
			if seen++; seen > limit {
				return fs.SkipAll
			}
			if !d.Type().IsRegular() {
				return nil
			}
			if fi, err := d.Info(); err == nil {
				if id, ok := identity(fi); ok {
					idx.files[id] = filepath.Join(h, strings.TrimPrefix(p, root))
				}
			}
			return nil
		})
		if cut == nil && seen > limit {
			idx.markUnfinished(fi, h)
		}
	}
	return idx
}

// markUnfinished remembers the hidden directory h (stat fi) as not walked to
// its end.
func (idx *hiddenIndex) markUnfinished(fi fs.FileInfo, h string) {
	if id, ok := identity(fi); ok {
		if _, dup := idx.unfinished[id.dev]; !dup {
			idx.unfinished[id.dev] = h
		}
	}
}

// identity returns fi's device and inode.
func identity(fi fs.FileInfo) (fileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{uint64(st.Dev), uint64(st.Ino)}, true
}
