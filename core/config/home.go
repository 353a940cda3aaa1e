package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// CheckHome checks $PINCER_HOME (read with getenv) before anything uses it:
// unset, an existing directory, or a path not made yet (pincer makes it) is
// fine. A relative path (it would name another place in every directory and
// in the store daemon), a file, or a path below a file is refused, with one
// line naming the variable, so every command fails with that line and not
// with the several errors of each directory derived from it.
func CheckHome(getenv func(string) string) error {
	h := getenv("PINCER_HOME")
	if h == "" {
		return nil
	}
	if !filepath.IsAbs(h) {
		return fmt.Errorf("PINCER_HOME=%s must be an absolute path", h)
	}
	fi, err := os.Stat(h)
	switch {
	case err == nil && !fi.IsDir():
		return fmt.Errorf("PINCER_HOME=%s is not a directory (set it to a directory, or unset it)", h)
	case errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("PINCER_HOME=%s is not a directory: a part of the path is a file (set it to a directory, or unset it)", h)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("PINCER_HOME=%s cannot be used: %v", h, unwrapPath(err))
	}
	return nil
}

// unwrapPath is the reason of a *fs.PathError without the path again.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
