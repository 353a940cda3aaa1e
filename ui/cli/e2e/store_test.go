package e2e

// End-to-end tests of the shared store: real pincer processes on one PINCER_HOME
// reaching the store daemon (`pincer store-daemon`), killed at chosen points.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
	"pincer/persist/daemon"
	"pincer/persist/remote"
)

// daemonFilesOf names the store daemon's files of a PINCER_HOME.
func daemonFilesOf(home string) daemon.Files {
	return daemon.FilesFor(filepath.Join(home, "run"), filepath.Join(home, "data", "store"))
}

// daemonPID is the pid of the daemon serving home's store, 0 if none answers.
func daemonPID(home string) int {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := remote.Open(ctx, remote.Options{Socket: daemonFilesOf(home).Socket})
	if err != nil {
		return 0
	}
	defer c.Close()
	p, err := c.Ping(ctx)
	if err != nil {
		return 0
	}
	return p.PID
}

// daemonStarts counts the daemons ever started for home (from their log).
func daemonStarts(home string) int {
	b, _ := os.ReadFile(daemonFilesOf(home).Log)
	return strings.Count(string(b), ": serving ")
}

// stopDaemonAtEnd stops home's daemon when the test ends.
func stopDaemonAtEnd(t *testing.T, home string) {
	t.Cleanup(func() {
		if pid := daemonPID(home); pid > 0 {
			_ = syscall.Kill(pid, syscall.SIGTERM)
			for i := 0; i < 1000 && alive(pid); i++ {
				time.Sleep(5 * time.Millisecond)
			}
		}
	})
}

// alive reports whether process pid exists and is not a zombie (a daemon whose
// starter died is reaped by init, whenever init gets to it).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z")
}

// proc is a pincer process whose stdout is read as stream-json lines.
type proc struct {
	cmd    *exec.Cmd
	lines  chan streamEvent // closed at the end of stdout
	mu     sync.Mutex
	all    []streamEvent
	stderr bytes.Buffer
}

// start starts pincer with args and extra environment.
func (e *env) start(extraEnv []string, args ...string) *proc {
	e.t.Helper()
	p := &proc{cmd: e.command(args...), lines: make(chan streamEvent, 10000)}
	p.cmd.Env = append(p.cmd.Env, "PINCER_STORE_IDLE=30s")
	p.cmd.Env = append(p.cmd.Env, extraEnv...)
	p.cmd.Stderr = &p.stderr
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var ev streamEvent
			if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Type == "result" {
				continue
			}
			p.mu.Lock()
			p.all = append(p.all, ev)
			p.mu.Unlock()
			p.lines <- ev
		}
	}()
	e.t.Cleanup(func() { _ = p.cmd.Process.Kill(); _ = p.cmd.Wait() })
	return p
}

// waitFor reads events until one matches; it fails the test at the end of the
// output or after a minute.
func (p *proc) waitFor(t *testing.T, what string, match func(streamEvent) bool) streamEvent {
	t.Helper()
	timeout := time.After(time.Minute)
	for {
		select {
		case ev, ok := <-p.lines:
			if !ok {
				t.Fatalf("pincer %v ended before %s; stderr: %s", p.cmd.Args[1:], what, p.stderr.String())
			}
			if match(ev) {
				return ev
			}
		case <-timeout:
			t.Fatalf("pincer %v: no %s within a minute", p.cmd.Args[1:], what)
		}
	}
}

// wait drains the output and returns the exit code and every event printed.
func (p *proc) wait(t *testing.T) (int, []streamEvent) {
	t.Helper()
	for range p.lines {
	}
	err := p.cmd.Wait()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return code, append([]streamEvent(nil), p.all...)
}

func isType(typ string) func(streamEvent) bool {
	return func(ev streamEvent) bool { return ev.Type == typ }
}

// TestStoreThreeProcesses: three pincer processes start at once on one home and
// end with one daemon; each runs a session; a fourth watches the first one's
// session live; the daemon is killed mid-session and everyone carries on.
func TestStoreThreeProcesses(t *testing.T) {
	e := newEnv(t)
	stopDaemonAtEnd(t, e.home)
	e.fake.Push(
		openaitest.Reply{Text: "Running it.", ToolCalls: []openaitest.Call{{ID: "a1", Name: "Bash", Args: `{"command":"sleep 1; echo alpha"}`}}},
		openaitest.Reply{Text: "alpha is done, after a pause", Hold: 1500 * time.Millisecond})
	fakes := []*openaitest.Server{e.fake,
		openaitest.New(openaitest.Reply{Text: "beta answer, slowly", Hold: 2500 * time.Millisecond}),
		openaitest.New(openaitest.Reply{Text: "gamma answer, slowly", Hold: 2500 * time.Millisecond})}
	procs := make([]*proc, 3)
	for i, f := range fakes {
		defer f.Close()
		procs[i] = e.start(nil, "run", "--base-url", f.BaseURL(), "--permission-mode", "bypassPermissions",
			"--output-format", "stream-json", fmt.Sprint("task ", i))
	}
	id := procs[0].waitFor(t, "turn.started", isType("turn.started")).SessionID
	for _, p := range procs[1:] {
		p.waitFor(t, "a delta", isType("message.delta"))
	}
	watch := e.start(nil, "sessions", "watch", id)
	procs[0].waitFor(t, "the Bash tool", isType("tool.started"))
	if n := daemonStarts(e.home); n != 1 {
		t.Fatalf("%d daemons started for three processes, want 1", n)
	}
	pid := daemonPID(e.home)
	if pid == 0 {
		t.Fatal("no daemon answers")
	}
	if environ, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid)); err == nil && bytes.Contains(environ, []byte("test-key")) {
		t.Error("the API key reached the store daemon's environment")
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var runs [3][]streamEvent
	for i, p := range procs {
		code, evs := p.wait(t)
		if code != 0 || evs[len(evs)-1].Type != "turn.completed" {
			t.Fatalf("process %d after the daemon was killed: exit %d, stderr %s", i, code, p.stderr.String())
		}
		runs[i] = evs
	}
	code, watched := watch.wait(t)
	if code != 0 {
		t.Fatalf("watch: exit %d: %s", code, watch.stderr.String())
	}
	// The watcher saw the first session's turn exactly as its driver did.
	var turn []streamEvent
	for _, ev := range runs[0] {
		if ev.Type == "turn.started" || len(turn) > 0 {
			turn = append(turn, ev)
		}
	}
	if fmt.Sprint(seqTypes(watched)) != fmt.Sprint(seqTypes(turn)) {
		t.Errorf("watched  %v\ndriver saw %v", seqTypes(watched), seqTypes(turn))
	}
	for i, evs := range runs {
		for j, ev := range evs {
			if ev.Sequence != uint64(j+1) {
				t.Fatalf("process %d: event %d has sequence %d", i, j, ev.Sequence)
			}
		}
	}
	if n, now := daemonStarts(e.home), daemonPID(e.home); n != 2 || now == pid || now == 0 {
		t.Errorf("after the kill: %d daemons started, serving pid %d (killed %d); want exactly one new", n, now, pid)
	}
	out, _, _ := e.run("sessions", "--json")
	var list []struct{ ID, Status string }
	if json.Unmarshal([]byte(out), &list) != nil || len(list) != 3 {
		t.Fatalf("sessions: %s", out)
	}
	for _, s := range list {
		if s.Status != "idle" {
			t.Errorf("session %s is %s", s.ID, s.Status)
		}
	}
}

// seqTypes lists "sequence:type" of events.
func seqTypes(evs []streamEvent) []string {
	var out []string
	for _, ev := range evs {
		out = append(out, fmt.Sprintf("%d:%s", ev.Sequence, ev.Type))
	}
	return out
}

// TestStoreLeaseAcrossProcesses: two processes submit to one session: exactly one
// runs, the other is told the lease is held, and can run once the first is done.
func TestStoreLeaseAcrossProcesses(t *testing.T) {
	e := newEnv(t, openaitest.Reply{Text: "holding the session", Hold: 2 * time.Second})
	stopDaemonAtEnd(t, e.home)
	first := e.start(nil, e.runArgs("--output-format", "stream-json", "first")...)
	id := first.waitFor(t, "turn.started", isType("turn.started")).SessionID
	_, stderr, code := e.run(e.runArgs("--session", id, "second")...)
	if code != 1 || !strings.Contains(stderr, "session lease is held by another process: "+id) ||
		strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Fatalf("second process: exit %d, stderr %q", code, stderr)
	}
	if code, _ := first.wait(t); code != 0 {
		t.Fatalf("first process: exit %d: %s", code, first.stderr.String())
	}
	e.fake.Push(openaitest.Reply{Text: "third"})
	if out, stderr, code := e.run(e.runArgs("--session", id, "third")...); code != 0 || strings.TrimSpace(out) != "third" {
		t.Fatalf("after the first finished: exit %d %q %s", code, out, stderr)
	}
}

// BenchmarkStoreSecondProcessStartup runs `pincer sessions --json` while the
// daemon runs (the common case of a second window), and with --no-daemon's
// direct open of Badger for comparison.
func BenchmarkStoreSecondProcessStartup(b *testing.B) {
	home := b.TempDir()
	fake := openaitest.New(openaitest.Reply{Text: "hi"})
	defer fake.Close()
	cmd := func(extra ...string) *exec.Cmd {
		c := exec.Command(pincerBin, "sessions", "--json")
		c.Dir = home
		c.Env = append(os.Environ(), append([]string{"PINCER_HOME=" + home, "PINCER_STORE_IDLE=1m"}, extra...)...)
		return c
	}
	prime := exec.Command(pincerBin, "run", "--base-url", fake.BaseURL(), "hi")
	prime.Dir = home
	prime.Env = append(os.Environ(), "PINCER_HOME="+home, "PINCER_API_KEY=k", "PINCER_MODEL=fake/m", "PINCER_STORE_IDLE=1m")
	if out, err := prime.CombinedOutput(); err != nil {
		b.Fatalf("%v %s", err, out)
	}
	pid := daemonPID(home)
	for _, mode := range []string{"daemon-running", "no-daemon"} {
		b.Run(mode, func(b *testing.B) {
			if mode == "no-daemon" && pid > 0 {
				_ = syscall.Kill(pid, syscall.SIGTERM)
				for alive(pid) {
					time.Sleep(5 * time.Millisecond)
				}
			}
			for b.Loop() {
				c := cmd()
				if mode == "no-daemon" {
					c = cmd("PINCER_NO_DAEMON=1")
				}
				if out, err := c.CombinedOutput(); err != nil {
					b.Fatalf("%v %s", err, out)
				}
			}
		})
	}
}

// TestStoreWatchCommand: `pincer sessions watch` on an idle session waits for
// its next turn and prints it; --after 0 replays from the start to the first
// turn's end; an unknown session is one clear line.
func TestStoreWatchCommand(t *testing.T) {
	e := newEnv(t, openaitest.Reply{Text: "first"})
	stopDaemonAtEnd(t, e.home)
	if _, stderr, code := e.run(e.runArgs("one")...); code != 0 {
		t.Fatalf("first run: %s", stderr)
	}
	out, _, _ := e.run("sessions", "--json")
	var list []struct{ ID string }
	if json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 {
		t.Fatalf("sessions: %s", out)
	}
	id := list[0].ID
	out, stderr, code := e.run("sessions", "watch", id, "--after", "0")
	evs := parseStreamLines(t, out)
	if code != 0 || evs[0].Type != "session.created" || evs[len(evs)-1].Type != "turn.completed" {
		t.Fatalf("watch --after 0: exit %d %s %v", code, stderr, seqTypes(evs))
	}
	watch := e.start(nil, "sessions", "watch", id)
	time.Sleep(300 * time.Millisecond) // it waits for the next turn
	e.fake.Push(openaitest.Reply{Text: "second"})
	if _, stderr, code := e.run(e.runArgs("--continue", "two")...); code != 0 {
		t.Fatalf("second run: %s", stderr)
	}
	code, watched := watch.wait(t)
	if code != 0 || len(watched) == 0 || watched[0].Type != "turn.started" || watched[0].Sequence != evs[len(evs)-1].Sequence+1 ||
		watched[len(watched)-1].Type != "turn.completed" {
		t.Fatalf("watch of the next turn: exit %d %v (%s)", code, seqTypes(watched), watch.stderr.String())
	}
	// An idle watch says at once, on stderr, that it waits (stdout stays JSON lines only).
	if want := "watching session " + id + " (idle): events appear as they happen; Ctrl+C stops"; !strings.HasPrefix(watch.stderr.String(), want) {
		t.Errorf("watch stderr = %q, want it to start with %q", watch.stderr.String(), want)
	}
	_, stderr, code = e.run("sessions", "watch", "nope")
	if code != 1 || !strings.Contains(stderr, `no session "nope"`) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Fatalf("unknown session: exit %d %q", code, stderr)
	}
}

// parseStreamLines parses JSON event lines (no result object).
func parseStreamLines(t *testing.T, out string) []streamEvent {
	t.Helper()
	var evs []streamEvent
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var ev streamEvent
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("not a JSON line: %q", line)
		}
		evs = append(evs, ev)
	}
	return evs
}
