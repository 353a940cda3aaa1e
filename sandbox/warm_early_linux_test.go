package sandbox

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAttackWarmGatedMismatch: a helper sent its request before the plan
// (sendEarly: same executor, same policy) but confined for a world that
// changed since — a hidden directory replaced, a hidden symlink pointed
// elsewhere, a Unix socket bound — gets no "go": it is killed with nothing
// run, and the command runs once, in a helper confined for the world as it
// is. Run with the key check in runWarm disabled, every form leaks.
func TestAttackWarmGatedMismatch(t *testing.T) {
	const marker = "GATED-STALE-5e1f"
	forms := []struct {
		name string
		// setup returns the policy's hidden paths; change changes the world
		// and returns the script that must not see marker.
		setup  func(t *testing.T, base string) []string
		change func(t *testing.T, base string) string
	}{{
		name: "hidden directory replaced",
		setup: func(t *testing.T, base string) []string {
			mustMkdir(t, filepath.Join(base, "vault"))
			return []string{filepath.Join(base, "vault")}
		},
		change: func(t *testing.T, base string) string {
			v := filepath.Join(base, "vault")
			if err := os.Rename(v, v+".old"); err != nil {
				t.Fatal(err)
			}
			mustMkdir(t, v)
			mustWrite(t, filepath.Join(v, "key"), marker)
			return "cat " + v + "/key 2>&1"
		},
	}, {
		name: "hidden symlink retargeted",
		setup: func(t *testing.T, base string) []string {
			mustMkdir(t, filepath.Join(base, "a"))
			mustMkdir(t, filepath.Join(base, "b"))
			mustWrite(t, filepath.Join(base, "b", "key"), marker)
			if err := os.Symlink(filepath.Join(base, "a"), filepath.Join(base, "link")); err != nil {
				t.Fatal(err)
			}
			return []string{filepath.Join(base, "link")}
		},
		change: func(t *testing.T, base string) string {
			link := filepath.Join(base, "link")
			if err := os.Remove(link); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(base, "b"), link); err != nil {
				t.Fatal(err)
			}
			return "cat " + filepath.Join(base, "b", "key") + " 2>&1"
		},
	}, {
		name:  "socket bound",
		setup: func(t *testing.T, base string) []string { return nil },
		change: func(t *testing.T, base string) string {
			sockDir, err := os.MkdirTemp("", "gated-sock-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(sockDir) })
			sock := filepath.Join(sockDir, "s.sock")
			l, err := net.Listen("unix", sock)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { l.Close() })
			return "test -S " + sock + " && echo " + marker
		},
	}}
	for _, f := range forms {
		t.Run(f.name, func(t *testing.T) {
			base := t.TempDir()
			pol := DefaultPolicy()
			pol.HiddenPaths = f.setup(t, base)
			e, root := warmSandbox(t, pol)
			log := filepath.Join(root, "ran.log")
			awaitWarm(t, e, shCommand(e, "true"), time.Now().Add(warmDeadline))
			script := f.change(t, base)
			aborted := warmCounts.gatedAborted.Load()
			res := sh(t, e, script+"; echo ran >> "+log+"; echo done")
			if !strings.Contains(res.Output, "done") {
				t.Fatalf("the command did not run: %q", res.Output)
			}
			noMarker(t, res.Output, marker)
			if warmCounts.gatedAborted.Load() == aborted {
				t.Fatal("the stale helper was not sent the request early (hint), so nothing was checked")
			}
			b, err := os.ReadFile(log)
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(b), "ran\n"); n != 1 {
				t.Errorf("the command ran %d times, want 1", n)
			}
		})
	}
}

// TestWarmGatedWaitsForGo: a helper sent a request runs nothing until its
// go: the command's marker file does not appear while it waits, nor after
// it is aborted; released, the command runs.
func TestWarmGatedWaitsForGo(t *testing.T) {
	e, root := warmSandbox(t, DefaultPolicy())
	for _, release := range []bool{false, true} {
		file := filepath.Join(root, "gate-marker")
		os.Remove(file)
		c := shCommand(e, "echo x > "+file)
		c.EnvAllow = e.Policy.EnvAllow
		awaitWarm(t, e, c, time.Now().Add(warmDeadline))
		call := e.sendEarly(context.Background(), c)
		if call == nil {
			t.Fatal("no helper for the hint")
		}
		time.Sleep(300 * time.Millisecond)
		if _, err := os.Stat(file); err == nil {
			t.Fatal("the command ran before its go")
		}
		if !release {
			call.abort()
			<-call.w.done
			if _, err := os.Stat(file); err == nil {
				t.Fatal("an aborted helper ran the command")
			}
			continue
		}
		wrapped := c
		res, ok := call.release(context.Background(), wrapped)
		if !ok || res.ExitCode != 0 {
			t.Fatalf("released: ok %v, exit %d: %q", ok, res.ExitCode, res.Output)
		}
		if _, err := os.Stat(file); err != nil {
			t.Fatalf("released, the command did not run: %v", err)
		}
	}
}

// TestWarmGatedCanceled: a call canceled between its early request and
// the plan's end gets no go: nothing runs, the helper is killed, and
// runWarm reports nothing ran (Run then answers as the classic path does
// for a canceled call).
func TestWarmGatedCanceled(t *testing.T) {
	e, root := warmSandbox(t, DefaultPolicy())
	file := filepath.Join(root, "cancel-marker")
	c := shCommand(e, "echo x > "+file)
	c.EnvAllow = e.Policy.EnvAllow
	awaitWarm(t, e, c, time.Now().Add(warmDeadline))
	ctx, cancel := context.WithCancel(context.Background())
	call := e.sendEarly(ctx, c)
	if call == nil {
		t.Fatal("no helper for the hint")
	}
	cancel()
	// A slow plan: time enough for a helper that did not wait to run it.
	time.Sleep(300 * time.Millisecond)
	p, err := e.plan()
	if err != nil {
		t.Fatal(err)
	}
	wrapped, err := e.wrap(p, c)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := e.runWarm(ctx, p, c, wrapped, call); ok {
		t.Fatal("a canceled call ran in its helper")
	}
	select {
	case <-call.w.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the helper of a canceled call still runs")
	}
	if _, err := os.Stat(file); err == nil {
		t.Fatal("the command of a canceled call ran")
	}
}

func mustMkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
}
