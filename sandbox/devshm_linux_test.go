package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSandboxPrivateDevShm: a sandboxed command gets an empty /dev/shm of its
// own. A marker the host keeps in /dev/shm is neither readable nor listable
// from inside (cat, ls, find, grep, a glob, cd), in the default policy, with
// reads confined and with a HOME holding nothing to hide (no hidden path
// needs the mount namespace then); what the command writes to /dev/shm stays
// inside; and shared memory still works (a file, python's multiprocessing
// semaphores).
func TestSandboxPrivateDevShm(t *testing.T) {
	if !Probe().MountNamespace {
		t.Skip("no mount namespace: /dev/shm is the host's (documented as degraded)")
	}
	if fi, err := os.Stat("/dev/shm"); err != nil || !fi.IsDir() {
		t.Skip("no /dev/shm on this host")
	}
	name := randName("pincer-shm-marker-")
	host := filepath.Join("/dev/shm", name)
	if err := os.WriteFile(host, []byte("SECRET-shm\n"), 0o644); err != nil {
		t.Skipf("cannot write the host's /dev/shm: %v", err)
	}
	defer os.Remove(host)
	written := randName("pincer-shm-written-")
	defer os.Remove(filepath.Join("/dev/shm", written))

	confined := DefaultPolicy()
	confined.ConfineReads = true
	emptyHome := func(t *testing.T) {
		t.Setenv("HOME", t.TempDir())
		t.Setenv("PINCER_HOME", t.TempDir())
	}
	for _, c := range []struct {
		name  string
		pol   Policy
		setup func(*testing.T)
	}{
		{"default", DefaultPolicy(), func(*testing.T) {}},
		{"empty-home", DefaultPolicy(), emptyHome},
		{"confined-reads", confined, func(*testing.T) {}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.setup(t)
			e, _ := newSandbox(t, c.pol)
			attacks := []string{
				"cat " + host, "ls -la /dev/shm", "find /dev/shm", "grep -r SECRET /dev/shm",
				"cat /dev/shm/pincer-shm-marker-*", "cd /dev/shm && cat " + name,
				"cat /proc/self/root/dev/shm/" + name,
			}
			for _, a := range attacks {
				res := sh(t, e, a)
				// A listing must not name the marker (an error message for
				// the path typed in may).
				listing := !strings.Contains(a, name)
				if strings.Contains(res.Output, "SECRET-shm") || listing && strings.Contains(res.Output, name) {
					t.Errorf("%q read the host's /dev/shm: %q", a, res.Output)
				}
			}
			res := sh(t, e, "echo INSIDE > /dev/shm/"+written+" && cat /dev/shm/"+written)
			if res.ExitCode != 0 || !strings.Contains(res.Output, "INSIDE") {
				t.Errorf("writing /dev/shm inside failed: %d %q", res.ExitCode, res.Output)
			}
			mustNotExist(t, filepath.Join("/dev/shm", written))
			if _, err := exec.LookPath("python3"); err == nil {
				res := sh(t, e, `python3 -c 'import multiprocessing as m; l = m.Lock(); l.acquire(); l.release(); print("SEM-OK")'`)
				if !strings.Contains(res.Output, "SEM-OK") {
					t.Errorf("python multiprocessing semaphore failed: %d %q", res.ExitCode, res.Output)
				}
			}
		})
	}
}

// TestSandboxDevShmDegraded: without a mount namespace /dev/shm is the
// host's, and the Executor's report says so.
func TestSandboxDevShmDegraded(t *testing.T) {
	e, _ := newSandbox(t, DefaultPolicy())
	e.probe = withoutMountNS
	if r, _ := e.Report(); !strings.Contains(r.String(), "/dev/shm is the host's") {
		t.Errorf("the degraded report does not name /dev/shm: %s", r.String())
	}
}
