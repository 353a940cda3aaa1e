package sandbox

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// warmSandbox is newSandbox with Executor.Warm, skipping where the machine
// gives no mount and PID namespaces (a warm helper then execs in place, as
// the classic one). Waiting helpers are stopped before the workspace goes.
func warmSandbox(t *testing.T, pol Policy) (*Executor, string) {
	t.Helper()
	e, root := newSandbox(t, pol)
	t.Cleanup(StopWarm)
	r, err := e.Report()
	if err != nil {
		t.Fatal(err)
	}
	if !r.MountNamespace || !r.PIDNamespace {
		t.Skip("no mount and PID namespaces here")
	}
	e.Warm = true
	return e, root
}

// warmDeadline bounds how long a test waits for a command to run in a
// helper from the pool.
const warmDeadline = 30 * time.Second

// awaitWarm returns once a pre-started helper for c's run under e, as the
// world is now, waits in the pool, starting one whenever none does: the one
// started after the last command may have been confined for a world that
// has moved on since (a Unix socket bound or gone anywhere on the host
// changes the spec: every foreign socket is hidden by name), and returns
// its key. It fails the test at deadline.
func awaitWarm(t *testing.T, e *Executor, c Command, deadline time.Time) string {
	t.Helper()
	for {
		warmPool.starts.Wait()
		p, err := e.plan()
		if err != nil {
			t.Fatal(err)
		}
		wt, err := e.warmTarget(p, c)
		if err != nil {
			t.Fatal(err)
		}
		if warmWaiting(wt.key) {
			return wt.key
		}
		if time.Now().After(deadline) {
			t.Fatalf("no pre-started helper became ready for %s %q within %v", c.Path, c.Args, warmDeadline)
		}
		e.prestartWarm(wt, p.prepare)
	}
}

// warmWaiting reports whether a ready helper with key waits in the pool.
func warmWaiting(key string) bool {
	warmPool.mu.Lock()
	defer warmPool.mu.Unlock()
	return slices.ContainsFunc(warmPool.idle, func(w *warmHelper) bool { return w.key == key })
}

// pooledRun calls run (which runs c under e) once a pre-started helper for
// c waits (awaitWarm), and again while c ran in a helper started for it
// instead (the world moved between the wait and the run; every c given here
// may run twice): it returns the result of the first run from the pool and
// fails the test when none came from it within warmDeadline.
func pooledRun(t *testing.T, e *Executor, c Command, run func() (Result, error)) (Result, error) {
	t.Helper()
	deadline := time.Now().Add(warmDeadline)
	for {
		awaitWarm(t, e, c, deadline)
		pooled, fell := warmCounts.pooled.Load(), warmCounts.fellBack.Load()
		res, err := run()
		if warmCounts.pooled.Load() != pooled {
			if warmCounts.fellBack.Load() != fell {
				t.Fatalf("%s %q: the helper taken from the pool could not run it (it had died)", c.Path, c.Args)
			}
			return res, err
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s %q did not run in a pre-started helper within %v", c.Path, c.Args, warmDeadline)
		}
	}
}

// pooledSh is sh in a helper from the pool (pooledRun).
func pooledSh(t *testing.T, e *Executor, script string) Result {
	t.Helper()
	res, _ := pooledRun(t, e, shCommand(e, script), func() (Result, error) { return sh(t, e, script), nil })
	return res
}

// shCommand is the command sh runs for script under e (as far as the spec
// of its helper goes).
func shCommand(e *Executor, script string) Command {
	return Command{Path: "bash", Args: []string{"-c", script}, Dir: e.Workspace.Root()}
}

// noMarker fails when out holds the marker.
func noMarker(t *testing.T, out, marker string) {
	t.Helper()
	if strings.Contains(out, marker) {
		t.Errorf("the command got through (%s):\n%s", marker, out)
	}
}

// TestAttackWarmHelperMemory: a command cannot ptrace its (pre-started,
// PID 1) helper, read or write its memory, environment, maps or descriptors
// (the control socket among them), nor reach its root or directory.
func TestAttackWarmHelperMemory(t *testing.T) {
	e, _ := warmSandbox(t, DefaultPolicy())
	sh(t, e, "true") // pre-starts the helper of the next command
	attempts := []string{
		"head -c 16 /proc/1/mem",
		"dd if=/proc/1/mem bs=1 count=1 skip=4194304",
		"printf x | dd of=/proc/1/mem bs=1 seek=4194304 conv=notrunc",
		"head -c 1 /proc/1/environ | grep -q .",
		"grep -q . /proc/1/maps",
		"grep -q . /proc/1/stack",
		"readlink /proc/1/fd/3 | grep -q .",
		"exec 7<>/proc/1/fd/3",
		"exec 7</proc/1/fd/0",
		"ls /proc/1/root/ | grep -q .",
		"ls /proc/1/cwd/ | grep -q .",
		"timeout 2 strace -p 1 -e trace=none",
		"python3 -c 'import ctypes,sys; sys.exit(0 if ctypes.CDLL(None).ptrace(16, 1, 0, 0) == 0 else 1)'",
		"python3 -c 'import ctypes,sys; sys.exit(0 if ctypes.CDLL(None).ptrace(0x4206, 1, 0, 0) == 0 else 1)'",
	}
	var script strings.Builder
	for i, a := range attempts {
		fmt.Fprintf(&script, "( %s ) >/dev/null 2>&1 && echo GOT-HELPER-%d\n", a, i)
	}
	script.WriteString("echo done\n")
	res := pooledSh(t, e, script.String())
	if !strings.Contains(res.Output, "done") {
		t.Fatalf("the script did not run to its end: %q", res.Output)
	}
	noMarker(t, res.Output, "GOT-HELPER")
}

// TestAttackWarmNoControlSocket: the command has no descriptor of the
// helper's control socket, and no socket of its own at all to start with.
func TestAttackWarmNoControlSocket(t *testing.T) {
	e, _ := warmSandbox(t, DefaultPolicy())
	sh(t, e, "true")
	res := pooledSh(t, e, `for f in /proc/self/fd/* /proc/$$/fd/*; do readlink "$f"; done; echo listed`)
	if !strings.Contains(res.Output, "listed") || !strings.Contains(res.Output, "pipe:") {
		t.Fatalf("the descriptors were not listed: %q", res.Output)
	}
	noMarker(t, res.Output, "socket:")
}

// TestAttackWarmUmountHiding: in a pre-started helper's namespace a
// command cannot take away the tmpfs over a hidden directory — umount in
// all its forms, in its own namespaces too — nor mount over it.
func TestAttackWarmUmountHiding(t *testing.T) {
	secret := t.TempDir()
	const marker = "WARM-SECRET-b41c"
	if err := os.WriteFile(filepath.Join(secret, "key"), []byte(marker), 0o600); err != nil {
		t.Fatal(err)
	}
	pol := DefaultPolicy()
	pol.HiddenPaths = []string{secret}
	e, _ := warmSandbox(t, pol)
	sh(t, e, "true")
	d := secret
	script := strings.Join([]string{
		"umount " + d, "umount -l " + d, "umount -f " + d, "umount -R " + d,
		"mount -o remount,rw " + d, "mount --bind / " + d,
		"unshare -m sh -c 'umount -l " + d + "; cat " + d + "/key'",
		"unshare -U -r -m sh -c 'umount -l " + d + "; cat " + d + "/key'",
		"unshare -U -r -m --propagation private sh -c 'umount -R " + d + "; cat " + d + "/key'",
		"python3 -c 'import ctypes; ctypes.CDLL(None).umount2(b\"" + d + "\", 2)'",
		"cat " + d + "/key", "cat /proc/1/root" + d + "/key",
	}, " 2>/dev/null; ") + " 2>/dev/null; echo done"
	res := pooledSh(t, e, script)
	if !strings.Contains(res.Output, "done") {
		t.Fatalf("the script did not run to its end: %q", res.Output)
	}
	noMarker(t, res.Output, marker)
	// And the next command, in the next pre-started helper, still sees none.
	res = pooledSh(t, e, "cat "+d+"/key 2>&1; echo done")
	noMarker(t, res.Output, marker)
}

// TestAttackWarmSignalHelper: signals to the helper from inside (PID 1:
// the kernel drops those it has no handler for) neither stop it nor reach
// the helper waiting for another policy's next command.
func TestAttackWarmSignalHelper(t *testing.T) {
	other := DefaultPolicy()
	other.HiddenPaths = []string{t.TempDir()}
	victim, _ := warmSandbox(t, other)
	sh(t, victim, "true")
	// A helper for victim's next command waits now (the newest in the
	// pool: the attacker's next one, put after it, cannot push it out).
	key := awaitWarm(t, victim, shCommand(victim, "echo ran"), time.Now().Add(warmDeadline))
	warmPool.mu.Lock()
	var waiting []*warmHelper
	for _, w := range warmPool.idle {
		if w.key == key {
			waiting = append(waiting, w)
		}
	}
	warmPool.mu.Unlock()

	e, _ := warmSandbox(t, DefaultPolicy())
	res := sh(t, e, `kill -STOP 1; kill -KILL 1; kill -9 -1; kill -STOP -1; kill -9 -- -1 2>/dev/null
		for p in /proc/[0-9]*; do [ "${p#/proc/}" = $$ ] || kill -9 "${p#/proc/}" 2>/dev/null; done; echo survived`)
	if !strings.Contains(res.Output, "survived") || res.ExitCode != 0 {
		t.Fatalf("the command was stopped (exit %d): %q", res.ExitCode, res.Output)
	}
	warmPool.starts.Wait()
	for _, w := range waiting {
		select {
		case <-w.done:
			t.Errorf("the helper waiting for the other policy died: %v", w.state)
		default:
		}
	}
	res = pooledSh(t, victim, "echo ran")
	if !strings.Contains(res.Output, "ran") || res.ExitCode != 0 {
		t.Fatalf("the other policy's helper was hurt (exit %d): %q", res.ExitCode, res.Output)
	}
}

// TestAttackWarmDaemonGone: what a command leaves running — setsid, nohup,
// double forks, a process that ignores SIGTERM and SIGHUP — is dead before
// Run returns, and the next command (in the next pre-started helper) sees
// nothing of it.
func TestAttackWarmDaemonGone(t *testing.T) {
	e, _ := warmSandbox(t, DefaultPolicy())
	sh(t, e, "true")
	tag := fmt.Sprint(4000 + os.Getpid()%1000)
	script := fmt.Sprintf(`setsid sleep %[1]s1 & nohup sleep %[1]s2 >/dev/null 2>&1 & ( sleep %[1]s3 & ) ;
		sh -c 'trap "" TERM HUP; exec sleep %[1]s4' & disown; echo started`, tag)
	res := pooledSh(t, e, script)
	if !strings.Contains(res.Output, "started") {
		t.Fatalf("the command did not run: %q", res.Output)
	}
	for _, p := range hostCmdlines(t) {
		if strings.Contains(p, "sleep\x00"+tag) {
			t.Errorf("left running after Run returned: %q", p)
		}
	}
	res = pooledSh(t, e, `cat /proc/[0-9]*/cmdline | tr '\0' ' '; echo; echo listed`)
	if !strings.Contains(res.Output, "listed") {
		t.Fatalf("the next command did not run: %q", res.Output)
	}
	noMarker(t, res.Output, "sleep "+tag)
}

// hostCmdlines returns the command lines of every process this test can see.
func hostCmdlines(t *testing.T) []string {
	t.Helper()
	dirs, err := filepath.Glob("/proc/[0-9]*/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range dirs {
		if b, err := os.ReadFile(d); err == nil {
			out = append(out, string(b))
		}
	}
	return out
}

// TestAttackWarmRacingCommands: two commands of the same policy at the same
// time each get a helper, and namespaces, of their own: neither sees the
// other's processes.
func TestAttackWarmRacingCommands(t *testing.T) {
	e, root := warmSandbox(t, DefaultPolicy())
	sh(t, e, "true")
	warmPool.starts.Wait()
	var wg sync.WaitGroup
	outs := make([]string, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each waits (bounded) for the other to be up, so they overlap.
			script := fmt.Sprintf(`sleep 93%[1]d & touch %[2]s/up%[1]d
				for _ in $(seq 200); do [ -e %[2]s/up%[3]d ] && break; sleep 0.05; done
				cat /proc/[0-9]*/cmdline | tr '\0' ' '; echo; echo listed`, i, root, 1-i)
			outs[i] = sh(t, e, script).Output
		}()
	}
	wg.Wait()
	for i, out := range outs {
		if !strings.Contains(out, "listed") || !strings.Contains(out, fmt.Sprintf("sleep 93%d", i)) {
			t.Fatalf("command %d did not run or see its own process: %q", i, out)
		}
		noMarker(t, out, fmt.Sprintf("sleep 93%d", 1-i))
	}
}

// TestAttackWarmCrossPolicy: a helper pre-started for one policy never runs
// a command of another: with the network on a command reaches a listener
// of pincer's, with it off (a helper waiting for the on policy) it does not;
// a directory one policy hides stays hidden although a helper without it
// waits.
func TestAttackWarmCrossPolicy(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	dial := fmt.Sprintf("echo hi > /dev/tcp/127.0.0.1/%d && echo CONNECTED", port)

	secret := t.TempDir()
	const marker = "CROSS-POLICY-9e1f"
	if err := os.WriteFile(filepath.Join(secret, "key"), []byte(marker), 0o600); err != nil {
		t.Fatal(err)
	}
	on := DefaultPolicy()
	on.Network = true
	ws, err := NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(StopWarm)
	open := &Executor{Policy: on, Workspace: ws, Warm: true}
	if r, _ := open.Report(); !r.MountNamespace || !r.PIDNamespace {
		t.Skip("no mount and PID namespaces here")
	}
	sh(t, open, "true")
	if res := pooledSh(t, open, dial+"; cat "+secret+"/key"); !strings.Contains(res.Output, "CONNECTED") || !strings.Contains(res.Output, marker) {
		t.Fatalf("with the network on and nothing hidden the command should connect and read: %q", res.Output)
	}
	off := DefaultPolicy()
	off.HiddenPaths = []string{secret}
	closed := &Executor{Policy: off, Workspace: ws, Warm: true}
	for range 3 {
		warmPool.starts.Wait() // the open policy's helper waits
		res := sh(t, closed, dial+" 2>/dev/null; cat "+secret+"/key 2>/dev/null; echo done")
		if !strings.Contains(res.Output, "done") {
			t.Fatalf("the command did not run: %q", res.Output)
		}
		noMarker(t, res.Output, "CONNECTED")
		noMarker(t, res.Output, marker)
	}
}

// TestAttackWarmStaleWorld: a helper that confined itself before the
// world changed is not used: a hidden directory replaced by another (a new
// inode: the waiting helper's tmpfs covers the old one) and a Unix socket
// bound since (not in its hidden list) are hidden from the next command.
func TestAttackWarmStaleWorld(t *testing.T) {
	base := t.TempDir()
	secret := filepath.Join(base, "vault")
	if err := os.Mkdir(secret, 0o700); err != nil {
		t.Fatal(err)
	}
	pol := DefaultPolicy()
	pol.HiddenPaths = []string{secret}
	e, _ := warmSandbox(t, pol)
	sh(t, e, "true")
	warmPool.starts.Wait()

	// The directory is replaced while a helper waits.
	const marker = "STALE-WORLD-77aa"
	if err := os.Rename(secret, secret+".old"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(secret, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(secret, "key"), []byte(marker), 0o600); err != nil {
		t.Fatal(err)
	}
	res := sh(t, e, "cat "+secret+"/key 2>&1; echo done")
	if !strings.Contains(res.Output, "done") {
		t.Fatalf("the command did not run: %q", res.Output)
	}
	noMarker(t, res.Output, marker)

	// A socket bound while a helper waits.
	warmPool.starts.Wait()
	sockDir, err := os.MkdirTemp("", "warm-sock-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(sockDir)
	sock := filepath.Join(sockDir, "s.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	res = sh(t, e, "test -S "+sock+" && echo SOCKET-VISIBLE; echo done")
	if !strings.Contains(res.Output, "done") {
		t.Fatalf("the command did not run: %q", res.Output)
	}
	noMarker(t, res.Output, "SOCKET-VISIBLE")
}

// TestWarmKilledHelperFallsBack: a pre-started helper killed while it
// waits (or one that cannot start) leaves the command to a classic helper:
// it runs, confined.
func TestWarmKilledHelperFallsBack(t *testing.T) {
	secret := t.TempDir()
	const marker = "FALLBACK-SECRET-3c3c"
	if err := os.WriteFile(filepath.Join(secret, "key"), []byte(marker), 0o600); err != nil {
		t.Fatal(err)
	}
	pol := DefaultPolicy()
	pol.HiddenPaths = []string{secret}
	e, root := warmSandbox(t, pol)
	sh(t, e, "true")
	c := Command{Path: "bash", Args: []string{"-c", "cat " + secret + "/key 2>&1; echo ran"}, Dir: root}
	deadline := time.Now().Add(warmDeadline)
	for {
		awaitWarm(t, e, c, deadline)
		warmPool.mu.Lock()
		for _, w := range warmPool.idle {
			_ = w.proc.Kill()
			<-w.done
		}
		warmPool.mu.Unlock()
		pooled, fell, aborted := warmCounts.pooled.Load(), warmCounts.fellBack.Load(), warmCounts.gatedAborted.Load()
		res, err := e.Run(context.Background(), c)
		if err != nil || !strings.Contains(res.Output, "ran") || res.ExitCode != 0 {
			t.Fatalf("the command did not run (exit %d, %v): %q", res.ExitCode, err, res.Output)
		}
		noMarker(t, res.Output, marker)
		if warmCounts.gatedAborted.Load() != aborted && warmCounts.pooled.Load() == pooled {
			// Taken before the plan (sendEarly), found dead as the request
			// was sent, and not used: the command went the other way.
			return
		}
		if warmCounts.pooled.Load() == pooled {
			// The world moved since the wait: the command ran in a helper
			// started for it, not the dead one. Again.
			if time.Now().After(deadline) {
				t.Fatalf("the dead helper was never taken within %v", warmDeadline)
			}
			continue
		}
		if warmCounts.fellBack.Load() == fell {
			t.Error("a dead helper was used")
		}
		return
	}
}

// likeCase is a command of TestWarmLikeClassic; with started set, its run
// is canceled once the command has made that file (it runs, its signal
// handling set up), so that how it dies does not depend on how far it got.
type likeCase struct {
	c       Command
	started string
}

// runLike runs lc under e and returns the result and error.
func runLike(t *testing.T, e *Executor, lc likeCase) (Result, error) {
	t.Helper()
	if lc.started == "" {
		return e.Run(context.Background(), lc.c)
	}
	_ = os.Remove(lc.started)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type ret struct {
		res Result
		err error
	}
	done := make(chan ret, 1)
	go func() {
		res, err := e.Run(ctx, lc.c)
		done <- ret{res, err}
	}()
	deadline := time.Now().Add(hangGuard)
	for {
		if _, err := os.Stat(lc.started); err == nil {
			cancel()
			break
		}
		select {
		case r := <-done:
			return r.res, r.err // it ended on its own: compared as it is
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("%q never made %s", lc.c.Args, lc.started)
		}
	}
	r := <-done
	return r.res, r.err
}

// TestWarmLikeClassic: the same commands give the same results through a
// pre-started helper (one from the pool, pooledRun) as through a classic
// one: output, exit codes, death by signal (its own, and SIGTERM then
// SIGKILL on cancellation once the command runs), a missing program,
// stdin, environment, directory, output cap. A timeout is reported as one
// by both; its exit status is only required to be a death by signal on
// both (SIGTERM while the helper still confines itself is dropped, the
// SIGKILL after the grace decides: which one ends the command depends on
// how far it got in a wall-clock time).
func TestWarmLikeClassic(t *testing.T) {
	e, root := warmSandbox(t, DefaultPolicy())
	classic := &Executor{Policy: e.Policy, Workspace: e.Workspace}
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	sh(t, e, "true")
	started := filepath.Join(root, "started")
	// Long enough for SIGTERM to end a command that does not ignore it
	// however loaded the machine; a command that does waits it out.
	termGrace := 5 * time.Second
	grace := 200 * time.Millisecond
	cases := []likeCase{
		{c: Command{Path: "bash", Args: []string{"-c", "echo out; echo err >&2; exit 3"}}},
		{c: Command{Path: "bash", Args: []string{"-c", "kill -TERM $$"}}},
		{c: Command{Path: "bash", Args: []string{"-c", "cat; echo read-$?"}}},
		{c: Command{Path: "bash", Args: []string{"-c", "pwd; echo $FOO"}, Dir: filepath.Join(root, "sub"), Env: []string{"FOO=bar"}}},
		{c: Command{Path: "no-such-program-here"}},
		{c: Command{Path: "bash", Args: []string{"-c", "touch " + started + "; exec sleep 30"}, KillGrace: termGrace}, started: started},
		{c: Command{Path: "bash", Args: []string{"-c", "trap '' TERM; touch " + started + "; sleep 30"}, KillGrace: grace}, started: started},
		{c: Command{Path: "bash", Args: []string{"-c", "exec sleep 30"}, Timeout: 300 * time.Millisecond, KillGrace: grace}},
		{c: Command{Path: "bash", Args: []string{"-c", "trap '' TERM; sleep 30"}, Timeout: 300 * time.Millisecond, KillGrace: grace}},
		{c: Command{Path: "bash", Args: []string{"-c", "head -c 3000000 /dev/zero | tr '\\0' x"}, MaxOutput: 1000}},
	}
	for _, lc := range cases {
		if lc.c.Dir == "" {
			lc.c.Dir = root
		}
		got, gerr := pooledRun(t, e, lc.c, func() (Result, error) { return runLike(t, e, lc) })
		want, werr := runLike(t, classic, lc)
		same := (gerr == nil) == (werr == nil) && got.Output == want.Output && got.TimedOut == want.TimedOut &&
			got.Canceled == want.Canceled && got.OmittedBytes == want.OmittedBytes
		if lc.c.Timeout > 0 {
			same = same && got.ExitCode > 128 && want.ExitCode > 128
		} else {
			same = same && got.ExitCode == want.ExitCode
		}
		if !same {
			t.Errorf("%s %v:\nwarm    %d %v timedOut=%v canceled=%v omitted=%d %q in %v\nclassic %d %v timedOut=%v canceled=%v omitted=%d %q in %v",
				lc.c.Path, lc.c.Args, got.ExitCode, gerr, got.TimedOut, got.Canceled, got.OmittedBytes, got.Output, got.Duration,
				want.ExitCode, werr, want.TimedOut, want.Canceled, want.OmittedBytes, want.Output, want.Duration)
		}
	}
}
