package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// TestWorkbenchWithoutTerminal: `setsid pincer </dev/null` (no controlling
// terminal, as from cron or a CI step) prints one clear line naming `pincer
// run` and exits 2 (a usage error), instead of panicking inside tcell.
func TestWorkbenchWithoutTerminal(t *testing.T) {
	e := newEnv(t)
	cmd := e.command()
	cmd.Env = append(cmd.Env, "TERM=xterm-256color")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // a new session: no controlling terminal
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = devnull, &out, &errb
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	stderr := errb.String()
	if code != 2 || strings.Contains(stderr, "panic") || strings.Count(stderr, "\n") != 1 ||
		!strings.HasPrefix(stderr, "pincer: no terminal") || !strings.Contains(stderr, "pincer run") {
		t.Fatalf("exit %d, stderr:\n%s\nwant exit 2 and one line \"pincer: no terminal: … pincer run …\"", code, stderr)
	}
	if out.Len() != 0 {
		t.Errorf("stdout: %q, want nothing", out.String())
	}
}
