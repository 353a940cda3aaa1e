package agent

import (
	"io/fs"
	"path/filepath"
)

// filepathWalk calls fn with every path under root.
func filepathWalk(root string, fn func(string)) error {
	return filepath.WalkDir(root, func(p string, _ fs.DirEntry, err error) error {
		if err == nil {
			fn(p)
		}
		return nil
	})
}
