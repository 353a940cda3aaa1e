package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"pincer/persist"
)

// dataDir is where pincer keeps its data: $PINCER_HOME/data, else
// $XDG_DATA_HOME/pincer, else ~/.local/share/pincer.
func dataDir() (string, error) {
	if h := os.Getenv("PINCER_HOME"); h != "" {
		return filepath.Join(h, "data"), nil
	}
	if x := os.Getenv("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, "pincer"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot find a data directory: set PINCER_HOME (%v)", err)
	}
	return filepath.Join(home, ".local", "share", "pincer"), nil
}

// errNoStore is returned by openExistingStore when pincer has never stored anything.
var errNoStore = errors.New("no store yet")

// storeDir is where the Badger store lives.
func storeDir() (string, error) {
	dir, err := dataDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "store"), nil
}

// openExistingStore opens the store for reading commands, which must not create one:
// errNoStore when there is none.
func openExistingStore() (persist.Store, error) {
	dir, err := storeDir()
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return nil, errNoStore
	}
	return persist.OpenBadger(dir)
}

// openStore opens the Badger store under the data directory, creating it.
func openStore() (persist.Store, error) {
	storeDir, err := storeDir()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(storeDir, 0o700); err != nil {
		return nil, fmt.Errorf("create store directory: %w", err)
	}
	return persist.OpenBadger(storeDir)
}
