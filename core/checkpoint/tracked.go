package checkpoint

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// trackedFiles are the files git's index tracks in a workspace whose root
// holds the repository's .git directory: a .gitignore line never hides them
// from a scan, as it does not from git (git keeps tracking an indexed file
// whatever .gitignore says later). dirs holds every directory above a
// tracked file, so an ignored directory that holds one is still walked (only
// its tracked files are visited).
type trackedFiles struct {
	files map[string]bool
	dirs  map[string]bool
}

// has reports whether rel is tracked; the zero value tracks nothing.
func (t trackedFiles) has(rel string) bool { return t.files[rel] }

// holds reports whether directory rel has a tracked file beneath it.
func (t trackedFiles) holds(rel string) bool { return t.dirs[rel] }

// indexCache keeps the last index read, by the index file's size, mtime and
// inode, so a scan decodes it again only after git changed it.
type indexCache struct {
	mu   sync.Mutex
	key  stat
	have bool
	set  trackedFiles
}

// tracked returns the files root/.git/index tracks (none when root holds no
// .git directory or its index does not decode: the scan then follows
// .gitignore alone, as before).
func (c *indexCache) tracked(root string) trackedFiles {
	name := filepath.Join(root, ".git", "index")
	fi, err := os.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return trackedFiles{}
	}
	key := statOf(fi)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.have && c.key == key {
		return c.set
	}
	set := readIndex(name)
	c.key, c.have, c.set = key, true, set
	return set
}

// readIndex decodes git's index at name into the tracked set.
func readIndex(name string) trackedFiles {
	f, err := os.Open(name)
	if err != nil {
		return trackedFiles{}
	}
	defer f.Close()
	var idx index.Index
	if err := index.NewDecoder(bufio.NewReader(f)).Decode(&idx); err != nil {
		return trackedFiles{}
	}
	set := trackedFiles{files: make(map[string]bool, len(idx.Entries)), dirs: map[string]bool{}}
	for _, e := range idx.Entries {
		set.files[e.Name] = true
		for d := e.Name; ; {
			i := strings.LastIndexByte(d, '/')
			if i < 0 {
				break
			}
			d = d[:i]
			if set.dirs[d] {
				break
			}
			set.dirs[d] = true
		}
	}
	return set
}
