package persist

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ErrInUse is matched (errors.Is) by the error OpenBadger returns when another
// process holds the store's directory.
var ErrInUse = errors.New("store is in use by another process")

// InUseError is the error of opening a store directory another process holds.
// Its message is one line meant for the terminal as it is.
type InUseError struct {
	// Dir is the store directory (absolute when it could be made so).
	Dir string
	// PID is the holder's process id from Badger's LOCK file, 0 if unknown.
	PID int
}

// Error names the store and the process holding it.
func (e *InUseError) Error() string {
	if e.PID != 0 && e.PID == os.Getpid() {
		return fmt.Sprintf("pincer store %s is already open in this process (pid %d)", e.Dir, e.PID)
	}
	pid := "pid unknown"
	if e.PID > 0 {
		pid = "pid " + strconv.Itoa(e.PID)
	}
	return fmt.Sprintf("the store %s is in use by another pincer process (%s); "+
		"sharing a store across processes comes later — close the other pincer or set PINCER_HOME",
		e.Dir, pid)
}

// Is reports whether target is ErrInUse.
func (e *InUseError) Is(target error) bool { return target == ErrInUse }

// lockFile is the file in which Badger's read-write owner writes its pid.
const lockFile = "LOCK"

// inUseError turns Badger's directory-lock failure into an *InUseError; it returns
// nil for any other error. Badger gives no typed error for this (and it does not
// match syscall.EWOULDBLOCK), so the message is matched.
func inUseError(dir string, err error) error {
	if !strings.Contains(err.Error(), "Cannot acquire directory lock") {
		return nil
	}
	abs, aerr := filepath.Abs(dir)
	if aerr != nil {
		abs = dir
	}
	return &InUseError{Dir: abs, PID: readLockPID(dir)}
}

// readLockPID reads the holder's pid from dir/LOCK. The holder writes the file just
// after taking the lock, so an empty or missing file is retried briefly.
func readLockPID(dir string) int {
	for attempt := 0; attempt < 5; attempt++ {
		b, err := os.ReadFile(filepath.Join(dir, lockFile))
		if err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
				return pid
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	return 0
}
