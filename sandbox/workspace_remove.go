package sandbox

import (
	"errors"
	"os"
)

// RemoveFile removes the regular file at path through path's root (as
// os.Remove, never following a symlink on the way out of the workspace). A
// directory is refused ("is a directory") and so is a symlink at path (pass
// the real path, as Resolve returns it); a missing file is fs.ErrNotExist.
func (w *Workspace) RemoveFile(path string) error {
	return w.inRoot(path, func(r *os.Root, rel string) error {
		if rel == "." {
			return errors.New("is the workspace directory")
		}
		fi, err := r.Lstat(rel)
		if err != nil {
			return err
		}
		switch {
		case fi.IsDir():
			return errors.New("is a directory")
		case fi.Mode()&os.ModeSymlink != 0:
			return errors.New("is a symbolic link: remove the file it names (Resolve)")
		}
		return r.Remove(rel)
	})
}
