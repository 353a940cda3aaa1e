package tools

import (
	"strings"
	"testing"
	"time"
)

// TestShellQuotaAcrossSessions: the sessions of one Run share its quota: with
// room for two shells, a second session's second shell is refused (the
// refusal says why and what to do), and admitted again once one has ended;
// a start that fails gives its slot back.
func TestShellQuotaAcrossSessions(t *testing.T) {
	q := NewShellQuota(2, 0)
	a, _, _ := bgEnv(t)
	b, _, _ := bgEnv(t)
	a.Shells, b.Shells = NewShellsIn(q, ShellEvents{}), NewShellsIn(q, ShellEvents{})
	t.Cleanup(a.Shells.Close)
	t.Cleanup(b.Shells.Close)
	first := startShell(t, a, "sleep 60")
	startShell(t, b, "sleep 60")
	_, err := runTool(t, Bash{}, b, BashInput{Command: "sleep 60", RunInBackground: true})
	if err == nil || !strings.Contains(err.Error(), "all its sessions") || !strings.Contains(err.Error(), "KillShell") {
		t.Fatalf("a third shell in the Run: %v", err)
	}
	if q.Running() != 2 {
		t.Errorf("running %d", q.Running())
	}
	if _, err := a.Shells.Kill(first); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(5 * time.Second); q.Running() != 1 && time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
	}
	startShell(t, b, "sleep 60")
	a.Shells.Close()
	b.Shells.Close()
	if q.Running() != 0 {
		t.Errorf("after Close %d slots are still taken", q.Running())
	}
}

// TestNewShellQuota: the per-shell share of the budget (table).
func TestNewShellQuota(t *testing.T) {
	for _, c := range []struct{ shells, procs, wantShells, wantPer int }{
		{0, 0, MaxRunningShells, RunShellProcesses / MaxRunningShells},
		{16, 8192, 16, 512},
		{4, 8192, 4, 2048},
		{16, 1000, 16, 300}, // never below the kernel's smallest pid_max
	} {
		q := NewShellQuota(c.shells, c.procs)
		if q.MaxShells() != c.wantShells || q.PerShell() != c.wantPer {
			t.Errorf("NewShellQuota(%d, %d) = %d shells of %d, want %d of %d", c.shells, c.procs, q.MaxShells(), q.PerShell(), c.wantShells, c.wantPer)
		}
	}
}
