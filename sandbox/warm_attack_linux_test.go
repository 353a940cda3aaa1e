package sandbox

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
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

// pooledRun runs script under e once a pre-started helper is ready and
// fails the test unless the command ran in one from the pool.
func pooledRun(t *testing.T, e *Executor, script string) Result {
	t.Helper()
	warmPool.starts.Wait()
	before := warmCounts.pooled.Load()
	res := sh(t, e, script)
	if warmCounts.pooled.Load() == before {
		t.Fatalf("%q did not run in a pre-started helper", script)
	}
	return res
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
	res := pooledRun(t, e, script.String())
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
	res := pooledRun(t, e, `for f in /proc/self/fd/* /proc/$$/fd/*; do readlink "$f"; done; echo listed`)
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
	res := pooledRun(t, e, script)
	if !strings.Contains(res.Output, "done") {
		t.Fatalf("the script did not run to its end: %q", res.Output)
	}
	noMarker(t, res.Output, marker)
	// And the next command, in the next pre-started helper, still sees none.
	res = pooledRun(t, e, "cat "+d+"/key 2>&1; echo done")
	noMarker(t, res.Output, marker)
}

// TestAttackWarmSignalHelper: signals to the helper from inside (PID 1:
// the kernel drops those it has no handler for) neither stop it nor reach
// the helper waiting for another policy's next command.
func TestAttackWarmSignalHelper(t *testing.T) {
	other := DefaultPolicy()
	other.HiddenPaths = []string{t.TempDir()}
	victim, _ := warmSandbox(t, other)
	sh(t, victim, "true") // a helper for victim's next command waits now
	warmPool.starts.Wait()

	e, _ := warmSandbox(t, DefaultPolicy())
	res := sh(t, e, `kill -STOP 1; kill -KILL 1; kill -9 -1; kill -STOP -1; kill -9 -- -1 2>/dev/null
		for p in /proc/[0-9]*; do [ "${p#/proc/}" = $$ ] || kill -9 "${p#/proc/}" 2>/dev/null; done; echo survived`)
	if !strings.Contains(res.Output, "survived") || res.ExitCode != 0 {
		t.Fatalf("the command was stopped (exit %d): %q", res.ExitCode, res.Output)
	}
	res = pooledRun(t, victim, "echo ran")
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
	res := pooledRun(t, e, script)
	if !strings.Contains(res.Output, "started") {
		t.Fatalf("the command did not run: %q", res.Output)
	}
	for _, p := range hostCmdlines(t) {
		if strings.Contains(p, "sleep\x00"+tag) {
			t.Errorf("left running after Run returned: %q", p)
		}
	}
	res = pooledRun(t, e, `cat /proc/[0-9]*/cmdline | tr '\0' ' '; echo; echo listed`)
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
	if res := pooledRun(t, open, dial+"; cat "+secret+"/key"); !strings.Contains(res.Output, "CONNECTED") || !strings.Contains(res.Output, marker) {
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
	e, _ := warmSandbox(t, pol)
	sh(t, e, "true")
	warmPool.starts.Wait()
	warmPool.mu.Lock()
	if len(warmPool.idle) == 0 {
		warmPool.mu.Unlock()
		t.Fatal("no helper waits")
	}
	for _, w := range warmPool.idle {
		_ = w.proc.Kill()
		<-w.done
	}
	warmPool.mu.Unlock()
	fell := warmCounts.fellBack.Load()
	res := sh(t, e, "cat "+secret+"/key 2>&1; echo ran")
	if !strings.Contains(res.Output, "ran") || res.ExitCode != 0 {
		t.Fatalf("the command did not run (exit %d): %q", res.ExitCode, res.Output)
	}
	noMarker(t, res.Output, marker)
	if warmCounts.fellBack.Load() == fell {
		t.Error("a dead helper was used")
	}
}

// TestWarmLikeClassic: the same commands give the same results through a
// pre-started helper as through a classic one: output, exit codes, death by
// signal, a missing program, stdin, environment, directory, timeout.
func TestWarmLikeClassic(t *testing.T) {
	e, root := warmSandbox(t, DefaultPolicy())
	classic := &Executor{Policy: e.Policy, Workspace: e.Workspace}
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	sh(t, e, "true")
	cases := []Command{
		{Path: "bash", Args: []string{"-c", "echo out; echo err >&2; exit 3"}},
		{Path: "bash", Args: []string{"-c", "kill -TERM $$"}},
		{Path: "bash", Args: []string{"-c", "cat; echo read-$?"}},
		{Path: "bash", Args: []string{"-c", "pwd; echo $FOO"}, Dir: filepath.Join(root, "sub"), Env: []string{"FOO=bar"}},
		{Path: "no-such-program-here"},
		{Path: "bash", Args: []string{"-c", "exec sleep 30"}, Timeout: 300 * time.Millisecond, KillGrace: 200 * time.Millisecond},
		{Path: "bash", Args: []string{"-c", "trap '' TERM; sleep 30"}, Timeout: 300 * time.Millisecond, KillGrace: 200 * time.Millisecond},
		{Path: "bash", Args: []string{"-c", "head -c 3000000 /dev/zero | tr '\\0' x"}, MaxOutput: 1000},
	}
	for _, c := range cases {
		if c.Dir == "" {
			c.Dir = root
		}
		warmPool.starts.Wait()
		before := warmCounts.pooled.Load()
		got, gerr := e.Run(context.Background(), c)
		if warmCounts.pooled.Load() == before {
			t.Fatalf("%v did not run in a pre-started helper", c.Args)
		}
		want, werr := classic.Run(context.Background(), c)
		if (gerr == nil) != (werr == nil) || got.Output != want.Output || got.ExitCode != want.ExitCode ||
			got.TimedOut != want.TimedOut || got.OmittedBytes != want.OmittedBytes {
			t.Errorf("%s %v:\nwarm    %d %v timedOut=%v omitted=%d %q\nclassic %d %v timedOut=%v omitted=%d %q",
				c.Path, c.Args, got.ExitCode, gerr, got.TimedOut, got.OmittedBytes, got.Output,
				want.ExitCode, werr, want.TimedOut, want.OmittedBytes, want.Output)
		}
	}
}
