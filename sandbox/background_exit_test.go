package sandbox

import (
	"testing"
	"time"
)

// TestOnExitRacesTheEnd: an OnExit arranged while the process is ending
// (after the ending goroutine took the hook list) is still called, once: a
// lost hook left a background shell's Close waiting for its end forever
// (the tools flake TestBackgroundShellExits hung on).
func TestOnExitRacesTheEnd(t *testing.T) {
	p := &Process{done: make(chan struct{})}
	called := make(chan Result, 2)
	afterHooksTaken = func() {
		// OnExit blocks on p.mu when finish holds it through the close,
		// so it cannot finish here; give it the chance it had.
		go p.OnExit(func(r Result) { called <- r })
		time.Sleep(50 * time.Millisecond)
	}
	t.Cleanup(func() { afterHooksTaken = nil })
	p.finish(Result{ExitCode: 3})
	select {
	case r := <-called:
		if r.ExitCode != 3 {
			t.Errorf("hook got exit code %d", r.ExitCode)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the OnExit hook arranged while the process ended was never called")
	}
	select {
	case <-called:
		t.Fatal("the hook was called twice")
	case <-time.After(100 * time.Millisecond):
	}
}
