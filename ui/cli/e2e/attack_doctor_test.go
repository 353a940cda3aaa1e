package e2e

// Issue 10, "what it must show": `pincer doctor` reports the network (off by
// default), the PID namespace, the paths hidden from commands and each protected
// path's state. Without --verbose the paths absent here are a count (new user
// r19: ~68 lines of absent paths buried the rest); --verbose lists each one.

import (
	"strings"
	"testing"
)

func TestAttackDoctorReports(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	short := doctorOutput(t, a)
	for _, want := range []string{"network: off", "pid namespace:", "hidden from commands",
		"protected paths", ".git/config", ".git/hooks", ".pincer", "--verbose lists them"} {
		if !strings.Contains(strings.ToLower(short), strings.ToLower(want)) {
			t.Errorf("pincer doctor does not mention %q:\n%s", want, short)
		}
	}
	long := doctorOutput(t, a, "--verbose")
	for _, want := range []string{"network: off", "pid namespace:", "hidden from commands", ".ssh", a.home,
		"protected paths", ".git/config", ".git/hooks", ".pincer", ".claude", ".envrc", "agents.md"} {
		if !strings.Contains(strings.ToLower(long), strings.ToLower(want)) {
			t.Errorf("pincer doctor --verbose does not mention %q:\n%s", want, long)
		}
	}
	if len(long) <= len(short) {
		t.Errorf("doctor --verbose (%d bytes) lists no more than doctor (%d bytes)", len(long), len(short))
	}
}

func doctorOutput(t *testing.T, a *attackEnv, flags ...string) string {
	t.Helper()
	out, stderr, code := a.runPincer(append([]string{"doctor"}, flags...)...)
	if code != 0 && out == "" {
		t.Fatalf("pincer doctor %v: exit %d: %s", flags, code, stderr)
	}
	return out
}
