package web

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestServeLockOnePerHome: while one holder has the run directory's lock, a
// second take fails with ErrServeRunning naming the holder's pid and
// address — also from another process (flock is per open file, so this
// process's second open is refused as another's would be); after Release the
// lock is free again.
func TestServeLockOnePerHome(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	first, err := LockServe(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LockServe(dir); !errors.Is(err, ErrServeRunning) || !strings.Contains(err.Error(), "a process still starting") {
		t.Fatalf("second take before Record: %v", err)
	}
	if err := first.Record("127.0.0.1:8123"); err != nil {
		t.Fatal(err)
	}
	_, err = LockServe(dir)
	if want := "pid " + strconv.Itoa(os.Getpid()) + " at http://127.0.0.1:8123"; !errors.Is(err, ErrServeRunning) || !strings.Contains(err.Error(), want) {
		t.Fatalf("second take: %v, want ErrServeRunning naming %q", err, want)
	}
	if _, err := exec.LookPath("flock"); err == nil { // util-linux's flock(1): another process
		if out, err := exec.Command("flock", "-n", filepath.Join(dir, LockFile), "true").CombinedOutput(); err == nil {
			t.Errorf("another process took the held lock (flock -n succeeded: %s)", out)
		}
	}
	first.Release()
	again, err := LockServe(dir)
	if err != nil {
		t.Fatalf("after Release: %v", err)
	}
	again.Release()
}
