package sandbox

import (
	"context"
	"errors"
	"os"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// forker forks up to 400 sleeping children (without bash's fork retries)
// and prints how many it got.
const forker = `python3 -c '
import os, time
n = 0
for i in range(400):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(30)
        os._exit(0)
    n += 1
print("forked", n, flush=True)
time.sleep(30)
'`

var forkedLine = regexp.MustCompile(`forked ([0-9]+)`)

// forked starts forker in the background under e with the command's
// MaxProcesses max and returns how many children it got.
func forked(t *testing.T, e *Executor, max int) int {
	t.Helper()
	p, err := e.Start(context.Background(), Command{
		Path: "bash", Args: []string{"-c", forker}, Dir: e.Workspace.Root(),
		KillGrace: 200 * time.Millisecond, MaxProcesses: max, RequireProcessLimit: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	m := forkedLine.FindStringSubmatch(waitOutput(t, p, "forked"))
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestBackgroundProcessBound: a command's MaxProcesses (a background shell's
// share of its Run's budget, tools.ShellQuota) holds under the sandbox —
// below the policy's own 4096, by the PID namespace's pid_max, also for root
// — and where it cannot hold the command is refused up front.
func TestBackgroundProcessBound(t *testing.T) {
	e, _ := newSandbox(t, DefaultPolicy())
	p, err := e.plan()
	if err != nil {
		t.Fatal(err)
	}
	if !p.processLimitHolds() {
		_, err := e.Start(context.Background(), Command{Path: "true", Dir: e.Workspace.Root(), RequireProcessLimit: true})
		if !errors.Is(err, errProcessLimit) {
			t.Fatalf("no bound here, yet Start gave %v", err)
		}
		t.Skip("no per-namespace pid_max here and running as root: refused, as it must be")
	}
	if n := forked(t, e, 300); n >= 300 || n < 200 {
		t.Errorf("with MaxProcesses 300 the command forked %d children", n)
	}
	if n := forked(t, e, 0); n != 400 {
		t.Errorf("with the policy's 4096 the command forked %d of 400 children", n)
	}
}

// TestProcessLimitHolds: where the process bound holds (the decision behind
// RequireProcessLimit).
func TestProcessLimitHolds(t *testing.T) {
	root := os.Geteuid() == 0
	for _, c := range []struct {
		name string
		p    execPlan
		want bool
	}{
		{"direct", execPlan{direct: true}, false},
		{"pid namespace with pid_max", execPlan{spec: helperSpec{PidNS: true}, report: Report{NamespacePidMax: true}}, true},
		{"pid namespace, no pid_max", execPlan{spec: helperSpec{PidNS: true}}, !root},
		{"pid_max probed, no pid namespace", execPlan{report: Report{NamespacePidMax: true}}, !root},
		{"neither", execPlan{}, !root},
	} {
		if got := c.p.processLimitHolds(); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
