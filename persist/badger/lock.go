package badger

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"pincer/persist"
)

// InUseError is the error of opening a store directory another process holds.
// Its message is one line meant for the terminal as it is.
type InUseError struct {
	// Dir is the store directory (absolute when it could be made so).
	Dir string
	// PID is the holder's process id from Badger's LOCK file, 0 if unknown.
	PID int
	// Daemon is set when the holder is a store daemon (`pincer store-daemon`).
	Daemon bool
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
	if e.Daemon {
		return fmt.Sprintf("the store %s is held by the pincer store daemon (%s), which shares it with the "+
			"other pincer processes: run without --no-daemon (PINCER_NO_DAEMON) to use it too", e.Dir, pid)
	}
	return fmt.Sprintf("the store %s is held by another process (%s): pincer processes share a store "+
		"through the store daemon, but one opened with --no-daemon (PINCER_NO_DAEMON) has it to itself — "+
		"wait for that one to end",
		e.Dir, pid)
}

// Is reports whether target is persist.ErrInUse.
func (e *InUseError) Is(target error) bool { return target == persist.ErrInUse }

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
	pid := readLockPID(dir)
	return &InUseError{Dir: abs, PID: pid, Daemon: isStoreDaemon(pid)}
}

// isStoreDaemon reports whether process pid runs `pincer store-daemon` (false
// when that cannot be told: no /proc).
func isStoreDaemon(pid int) bool {
	if pid <= 0 {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return false
	}
	args := strings.Split(string(b), "\x00")
	return len(args) > 1 && args[1] == "store-daemon"
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
