//go:build !unix

package config

import "sync"

// otherMu stands in for flock(2) where there is none: writers of this process
// exclude each other, other processes are not held off.
var otherMu sync.Mutex

// lockFile serialises Edit within this process (see lock_unix.go for the
// cross-process lock).
func lockFile(string) (func(), error) {
	otherMu.Lock()
	return otherMu.Unlock, nil
}
