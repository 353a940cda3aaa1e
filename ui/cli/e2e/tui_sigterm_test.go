package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
)

// TestTUIExitsOnSIGTERMAfterItsTerminalWentAway (Found 13): the workbench
// runs a turn (it holds the session lease); its terminal goes away (tmux
// kill-session: SIGHUP) and it gets SIGTERM. It stops: the process is gone
// (a generous wait, not a timing assertion), the turn is recorded as
// cancelled and the lease released, so the session continues at once.
func TestTUIExitsOnSIGTERMAfterItsTerminalWentAway(t *testing.T) {
	e := newEnv(t, openaitest.Reply{Text: "a long answer", Hold: 60 * time.Second}, openaitest.Reply{Text: "again"})
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	script := filepath.Join(dir, "run.sh")
	body := fmt.Sprintf(`#!/bin/sh
cd '%s' || exit 1
export PINCER_HOME='%s' PINCER_API_KEY=test-key PINCER_MODEL=fake/test-model LANG=C.UTF-8 LC_ALL=C.UTF-8 PINCER_STORE_IDLE=30s
echo $$ > '%s'
exec '%s' --base-url '%s' --no-sandbox 2>'%s'
`, e.repo, e.home, pidFile, pincerBin, e.fake.BaseURL(), filepath.Join(dir, "stderr.txt"))
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	tm := newTmux(t, 120, 40, script)
	tm.waitText("1 Transcript", "· idle ·")
	tm.typeText("take your time")
	tm.keys("Enter")
	tm.waitText("take your time", "running")
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if out, err := tm.run("kill-session", "-t", "main"); err != nil {
		t.Fatalf("kill-session: %v %s", err, out)
	}
	_ = syscall.Kill(pid, syscall.SIGTERM)
	deadline := time.Now().Add(20 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("pincer (pid %d) still runs 20 s after its terminal went away and SIGTERM", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "stderr.txt")); strings.Contains(string(b), "panic") || strings.Contains(string(b), "internal error") {
		t.Errorf("stderr: %s", b)
	}
	out, stderr, code := e.run("sessions", "show", "--json", lastSessionID(t, e))
	if code != 0 || !strings.Contains(out, `"turn.cancelled"`) {
		t.Errorf("the turn was not recorded as cancelled (exit %d, %s):\n%s", code, stderr, out)
	}
	// The lease is free: the session continues in another process at once.
	_, stderr, code = e.run(e.runArgs("--continue", "--no-sandbox", "go on")...)
	if code != 0 || strings.Contains(stderr, "lease") {
		t.Errorf("continuing: exit %d, %s", code, stderr)
	}
}

// lastSessionID is the newest session's ID (from `pincer sessions --json`).
func lastSessionID(t *testing.T, e *env) string {
	t.Helper()
	out, stderr, code := e.run("sessions", "--json")
	i := strings.Index(out, `"id"`)
	if code != 0 || i < 0 {
		t.Fatalf("sessions --json: exit %d %s\n%s", code, stderr, out)
	}
	rest := out[i+len(`"id"`):]
	rest = rest[strings.IndexByte(rest, '"')+1:]
	return rest[:strings.IndexByte(rest, '"')]
}
