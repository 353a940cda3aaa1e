package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Edit is the one writer of pincer's configuration files (config.toml,
// .pincer/settings.local.toml, trusted-projects.json): it changes the file at
// path as one read-change-write cycle that no other writer can interleave.
//
// It takes an exclusive lock on the sibling file path+".lock" (flock(2), held
// across processes: two `pincer model add-model` at the same instant both land),
// reads the file inside the lock (nil when it does not exist), passes its bytes
// to change, and writes what change returns with WriteAtomic (mode perm). When
// change returns an error, or bytes equal to what was read, nothing is written.
// The directory is created (mode 0700) when missing.
func Edit(path string, perm fs.FileMode, change func(old []byte) ([]byte, error)) error {
	if path == "" {
		return errors.New("no config directory: set PINCER_HOME or HOME")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	unlock, err := lockFile(path + ".lock")
	if err != nil {
		return fmt.Errorf("lock %s: %w", path, err)
	}
	defer unlock()
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	out, err := change(old)
	if err != nil {
		return err
	}
	if old != nil && bytes.Equal(out, old) {
		return nil
	}
	return WriteAtomic(path, out, perm)
}

// WriteAtomic writes data to path whole or not at all: a temporary file in the
// same directory, given mode perm, written and fsynced, renamed over path, then
// the directory fsynced (best effort) so that the rename survives a crash. A
// reader sees the old file or the new one, never a torn one. Concurrent
// read-change-write cycles must go through Edit.
func WriteAtomic(path string, data []byte, perm fs.FileMode) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	name, done := tmp.Name(), false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if err := tmp.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(name, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	done = true
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}
