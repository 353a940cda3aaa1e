package e2e

// Issue 10, "what it must show": `pincer doctor` reports the network (off by
// default), the PID namespace, the paths hidden from commands and each protected
// path's state.

import (
	"strings"
	"testing"
)

func TestAttackDoctorReports(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	out, stderr, code := a.runPincer("doctor")
	if code != 0 && out == "" {
		t.Fatalf("pincer doctor: exit %d: %s", code, stderr)
	}
	low := strings.ToLower(out)
	for _, want := range []string{"network: off", "pid namespace:", "hidden from commands", ".ssh", a.home,
		"protected paths", ".git/config", ".git/hooks", ".pincer", ".claude", ".envrc", "agents.md"} {
		if !strings.Contains(low, strings.ToLower(want)) {
			t.Errorf("pincer doctor does not mention %q:\n%s", want, out)
		}
	}
}
