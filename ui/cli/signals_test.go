package cli

import (
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalDuringStartupEndsProcess: before started, SIGTERM ends the
// process at once (143) even when start-up is stuck in work that watches no
// context; after started it only cancels the context. The test binary
// re-runs itself as the process under test.
func TestSignalDuringStartupEndsProcess(t *testing.T) {
	switch os.Getenv("PINCER_SIGNAL_CHILD") {
	case "startup":
		_, stop, _ := signalContext()
		defer stop()
		os.Stdout.WriteString("ready\n")
		select {} // stuck start-up: nothing here watches ctx
	case "started":
		ctx, stop, started := signalContext()
		defer stop()
		started()
		os.Stdout.WriteString("ready\n")
		<-ctx.Done()
		os.Stdout.WriteString("cancelled\n")
		os.Exit(0)
	}
	for _, c := range []struct {
		mode string
		code int
		out  string
	}{{"startup", 128 + int(syscall.SIGTERM), ""}, {"started", 0, "cancelled"}} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSignalDuringStartupEndsProcess$")
		cmd.Env = append(os.Environ(), "PINCER_SIGNAL_CHILD="+c.mode)
		var errb strings.Builder
		cmd.Stderr = &errb
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 6)
		if _, err := out.Read(buf); err != nil {
			t.Fatal(err)
		}
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		rest := make(chan string, 1)
		go func() { // every read before Wait (exec.Cmd.StdoutPipe)
			b, _ := io.ReadAll(out)
			rest <- string(b)
			done <- cmd.Wait()
		}()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%s: SIGTERM did not end the process", c.mode)
		}
		if cmd.ProcessState.ExitCode() != c.code {
			t.Errorf("%s: exit %d, want %d; stderr %s", c.mode, cmd.ProcessState.ExitCode(), c.code, errb.String())
		}
		if c.mode == "startup" && !strings.Contains(errb.String(), "during start-up") {
			t.Errorf("startup: stderr %q", errb.String())
		}
		if c.out != "" && !strings.Contains(<-rest, c.out) {
			t.Errorf("%s: the context was not cancelled", c.mode)
		}
	}
}
