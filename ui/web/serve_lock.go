package web

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// LockFile is the name of the lock a running `pincer serve` holds in the run
// directory (beside TokenFile) for its whole life: one server per
// PINCER_HOME, so a second cannot replace the first's token file (and delete
// it at its exit). The file holds the holder's "pid PID addr HOST:PORT".
const LockFile = "serve.lock"

// ErrServeRunning is LockServe's error when another server holds the lock;
// its message names that server's pid and address.
var ErrServeRunning = errors.New("another pincer serve runs with this PINCER_HOME")

// ServeLock is the held lock: Record writes the server's address into it,
// Release lets it go (at exit; the file stays, empty of meaning once
// unlocked).
type ServeLock struct {
	f *os.File
}

// LockServe takes dir/serve.lock (dir made 0700 when missing) without
// waiting: ErrServeRunning (wrapped, "pid 4242 at http://127.0.0.1:8080")
// when another live process holds it. The lock is flock(2)'s, so it ends with
// its process however that ends.
func LockServe(dir string) (*ServeLock, error) {
	if dir == "" {
		return nil, fmt.Errorf("serve lock: no run directory")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("serve lock: %w", err)
	}
	path := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("serve lock: %w", err)
	}
	held, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("serve lock %s: %w", path, err)
	}
	if !held {
		b, _ := os.ReadFile(path)
		f.Close()
		return nil, fmt.Errorf("%w: %s (stop it first, or give this one another PINCER_HOME)", ErrServeRunning, describeHolder(string(b)))
	}
	return &ServeLock{f: f}, nil
}

// describeHolder is the lock file's "pid PID addr ADDR" for people: "pid
// 4242 at http://127.0.0.1:8080"; "a process still starting" when empty.
func describeHolder(content string) string {
	fields := strings.Fields(content)
	var pid, addr string
	for i := 0; i+1 < len(fields); i += 2 {
		switch fields[i] {
		case "pid":
			pid = fields[i+1]
		case "addr":
			addr = fields[i+1]
		}
	}
	switch {
	case pid != "" && addr != "":
		return "pid " + pid + " at http://" + addr
	case pid != "":
		return "pid " + pid
	}
	return "a process still starting"
}

// Record writes this process's pid and the bound address into the lock file
// (what a second start names).
func (l *ServeLock) Record(addr string) error {
	if err := l.f.Truncate(0); err != nil {
		return fmt.Errorf("serve lock: %w", err)
	}
	if _, err := l.f.WriteAt([]byte(fmt.Sprintf("pid %d addr %s\n", os.Getpid(), addr)), 0); err != nil {
		return fmt.Errorf("serve lock: %w", err)
	}
	return nil
}

// Release clears the file and lets the lock go.
func (l *ServeLock) Release() {
	_ = l.f.Truncate(0)
	unlock(l.f)
	_ = l.f.Close()
}
