package main

import (
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

// openStore opens the Badger store under the data directory.
func openStore() (persist.Store, error) {
	dir, err := dataDir()
	if err != nil {
		return nil, err
	}
	storeDir := filepath.Join(dir, "store")
	if err := os.MkdirAll(storeDir, 0o700); err != nil {
		return nil, fmt.Errorf("create store directory: %w", err)
	}
	return persist.OpenBadger(storeDir)
}
