package sandbox

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startBG starts script with bash in the workspace root under e, in the
// background; the test kills it at its end.
func startBG(t *testing.T, e *Executor, script string) *Process {
	t.Helper()
	p, err := e.Start(context.Background(), Command{
		Path: "bash", Args: []string{"-c", script}, Dir: e.Workspace.Root(),
		KillGrace: 200 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Kill() })
	return p
}

// waitOutput waits until the process's output contains want.
func waitOutput(t *testing.T, p *Process, want string) string {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		b, _, _ := p.Output().ReadSince(0)
		if strings.Contains(string(b), want) {
			return string(b)
		}
	}
	b, _, _ := p.Output().ReadSince(0)
	t.Fatalf("no %q in the output: %q", want, b)
	return ""
}

// TestStartRunsInBackground: Start returns while the command runs, the
// output arrives as it is written, the exit status is kept.
func TestStartRunsInBackground(t *testing.T) {
	e, _ := newSandbox(t, DefaultPolicy())
	p := startBG(t, e, "echo one; until [ -e GO ]; do sleep 0.02; done; echo two; exit 3")
	if _, done := p.Exited(); done {
		t.Fatal("the process ended before it was told to")
	}
	waitOutput(t, p, "one")
	_, off, _ := p.Output().ReadSince(0)
	exited := make(chan Result, 1)
	p.OnExit(func(r Result) { exited <- r })
	if err := os.WriteFile(filepath.Join(e.Workspace.Root(), "GO"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	res := p.Wait()
	if res.ExitCode != 3 || res.Canceled {
		t.Errorf("result %+v, want exit 3, not cancelled", res)
	}
	if got, _, _ := p.Output().ReadSince(off); string(got) != "two\n" {
		t.Errorf("output since the first read: %q", got)
	}
	select {
	case r := <-exited:
		if r.ExitCode != 3 {
			t.Errorf("OnExit got %+v", r)
		}
	case <-time.After(5 * time.Second):
		t.Error("OnExit was not called")
	}
	called := false
	p.OnExit(func(Result) { called = true })
	if !called {
		t.Error("OnExit after the end did not call at once")
	}
}

// TestStartHasNoTimeout: Command.Timeout does not apply to a background
// process (a dev server runs until it is killed).
func TestStartHasNoTimeout(t *testing.T) {
	e, _ := newSandbox(t, DefaultPolicy())
	p, err := e.Start(context.Background(), Command{Path: "bash", Args: []string{"-c", "sleep 0.4; echo survived"}, Dir: e.Workspace.Root(), Timeout: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res := p.Wait(); res.ExitCode != 0 || !strings.Contains(res.Output, "survived") {
		t.Errorf("result %+v", res)
	}
}

// TestStartOutlivesContext: the setup context ending does not end the process.
func TestStartOutlivesContext(t *testing.T) {
	e, _ := newSandbox(t, DefaultPolicy())
	ctx, cancel := context.WithCancel(context.Background())
	p, err := e.Start(ctx, Command{Path: "bash", Args: []string{"-c", "sleep 0.3; echo still"}, Dir: e.Workspace.Root()})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if res := p.Wait(); res.ExitCode != 0 || res.Output != "still\n" {
		t.Errorf("result %+v", res)
	}
}

// TestKillEndsEverything: Kill ends the command and every process it started,
// however it tried to get away (setsid, nohup, double forks, ignored
// signals).
func TestKillEndsEverything(t *testing.T) {
	e, root := newSandbox(t, DefaultPolicy())
	var lines []string
	for _, l := range escapes(root) {
		if !strings.Contains(l, "kill -9") {
			lines = append(lines, l)
		}
	}
	p := startBG(t, e, strings.Join(append(lines, "trap '' TERM", "echo ready", "sleep 60"), "\n"))
	waitOutput(t, p, "ready")
	if s := survivors(root); len(s) < 3 {
		t.Fatalf("the payload is not running (%d processes): the test would prove nothing", len(s))
	}
	res := p.Kill()
	if !res.Canceled {
		t.Errorf("a killed process is not marked Canceled: %+v", res)
	}
	var left []string
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if left = survivors(root); len(left) == 0 {
			break
		}
	}
	if len(left) > 0 {
		t.Errorf("processes survived Kill:\n%s", strings.Join(left, "\n"))
	}
	proofsAfterGo(t, root, "the shell was killed")
	if again := p.Kill(); again.ExitCode != res.ExitCode {
		t.Errorf("a second Kill changed the result: %+v, then %+v", res, again)
	}
}

// TestStartConfined: a background command gets the foreground's sandbox:
// it cannot write outside the workspace, and no secret variable reaches it.
func TestStartConfined(t *testing.T) {
	if r, _ := (&Executor{Policy: DefaultPolicy()}).Report(); r.LandlockABI == 0 {
		t.Skip("no Landlock here")
	}
	e, _ := newSandbox(t, DefaultPolicy())
	t.Setenv("PINCER_TEST_SECRET_TOKEN", "marker-secret-value")
	target := filepath.Join(homeOutsideTemp(t), randName(".pincer-bg-escape-"))
	p := startBG(t, e, "touch "+target+" 2>&1; echo token=$PINCER_TEST_SECRET_TOKEN; echo done")
	res := p.Wait()
	if _, err := os.Stat(target); err == nil {
		os.Remove(target)
		t.Errorf("a background command wrote outside the workspace: %s", target)
	}
	if strings.Contains(res.Output, "marker-secret-value") {
		t.Errorf("a secret variable reached the background command: %q", res.Output)
	}
}

// TestStartBoundedOutput: a command that prints far more than MaxOutput
// leaves only the last MaxOutput bytes in memory.
func TestStartBoundedOutput(t *testing.T) {
	e, _ := newSandbox(t, DefaultPolicy())
	p, err := e.Start(context.Background(), Command{Path: "bash", Args: []string{"-c", "head -c 50000000 /dev/zero | tr '\\0' x; echo END"}, Dir: e.Workspace.Root(), MaxOutput: 4096})
	if err != nil {
		t.Fatal(err)
	}
	res := p.Wait()
	if len(res.Output) > 4096 || !strings.HasSuffix(res.Output, "xEND\n") || res.OmittedBytes != 50000004-4096 {
		t.Errorf("kept %d bytes ending %q, omitted %d", len(res.Output), res.Output[max(0, len(res.Output)-8):], res.OmittedBytes)
	}
}

// TestStartKilledParent: kill -9 of pincer (this test binary in parent
// mode, with a background shell) takes the background command and
// everything it started with it.
func TestStartKilledParent(t *testing.T) {
	root := t.TempDir()
	started := filepath.Join(root, "started")
	var lines []string
	for _, l := range escapes(root) {
		if !strings.Contains(l, "kill -9") {
			lines = append(lines, l)
		}
	}
	script := strings.Join(append(lines, "touch "+started, "sleep 30"), "\n")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "PINCER_SANDBOX_TEST_PARENT="+root, "PINCER_SANDBOX_TEST_SCRIPT="+script, "PINCER_SANDBOX_TEST_BACKGROUND=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		if _, err := os.Stat(started); err == nil {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("the background command never started: %s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if s := survivors(root); len(s) < 3 {
		t.Fatalf("the payload is not running (%d processes): the test would prove nothing", len(s))
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	var left []string
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if left = survivors(root); len(left) == 0 {
			break
		}
	}
	if len(left) > 0 {
		t.Errorf("background processes survived kill -9 of their pincer:\n%s", strings.Join(left, "\n"))
	}
	proofsAfterGo(t, root, "pincer was killed")
}
