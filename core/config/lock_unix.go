//go:build unix

package config

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive flock(2) on path (created, mode 0600), waiting for
// any other holder, in this process or another; the returned function releases it.
// flock locks belong to the open file, so two goroutines of one process exclude
// each other too.
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
