package sandbox

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// survivors returns the pids of processes whose command line mentions token
// (a test's unique temp dir), other than this process.
func survivors(token string) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' || e.Name() == fmt.Sprint(os.Getpid()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Contains(b, []byte(token)) {
			stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
			if strings.Contains(string(stat), ") Z ") {
				continue // a zombie: dead, waiting for its parent
			}
			if bytes.Contains(b, []byte(`"warm":true`)) && childless(e.Name()) {
				// A warm helper reports its command's status once it has
				// killed and reaped everything in its namespace, then
				// exits while the kernel tears the namespaces down.
				continue
			}
			out = append(out, e.Name()+": "+strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return out
}

// childless reports whether no thread of process pid has a child.
func childless(pid string) bool {
	kids, _ := filepath.Glob(filepath.Join("/proc", pid, "task", "*", "children"))
	for _, k := range kids {
		if b, err := os.ReadFile(k); err != nil || len(bytes.TrimSpace(b)) > 0 {
			return false
		}
	}
	return true
}

// escapes are background payloads that try to outlive their Bash call: each
// waits for a file named GO in root (made once the call is over) and then
// writes PROOF-<n>.
func escapes(root string) []string {
	p := func(n int) string { return filepath.Join(root, fmt.Sprintf("PROOF-%d", n)) }
	wait := fmt.Sprintf("until [ -e %s/GO ]; do sleep 0.05; done", root)
	return []string{
		fmt.Sprintf(`(%s; touch %s) &`, wait, p(0)),
		fmt.Sprintf(`setsid bash -c '%s; touch %s' &`, wait, p(1)),
		fmt.Sprintf(`setsid -f bash -c '%s; touch %s'`, wait, p(2)),
		fmt.Sprintf(`nohup bash -c '%s; touch %s' >/dev/null 2>&1 &`, wait, p(3)),
		fmt.Sprintf(`bash -c '(bash -c "%s; touch %s" &) &'`, wait, p(4)),
		fmt.Sprintf(`bash -c '%s; touch %s' & disown`, wait, p(5)),
		fmt.Sprintf(`bash -c 'trap "" HUP TERM INT; %s; touch %s' </dev/null >/dev/null 2>&1 &`, wait, p(6)),
		fmt.Sprintf(`(trap "" HUP; setsid bash -c 'exec 1>&- 2>&-; %s; touch %s' &)`, wait, p(7)),
		fmt.Sprintf(`perl -e 'exit if fork; require POSIX; POSIX::setsid(); exit if fork; select(undef,undef,undef,0.05) until -e "%s/GO"; open F, ">%s"' &`, root, p(8)),
		fmt.Sprintf(`python3 -c 'import os,time
if os.fork(): os._exit(0)
os.setsid()
if os.fork(): os._exit(0)
while not os.path.exists("%s/GO"): time.sleep(0.05)
open("%s","w")' 2>/dev/null || touch %s.skipped`, root, p(9), p(9)),
		fmt.Sprintf(`kill -9 1; kill -9 -1; (%s; touch %s) & `, wait, p(10)),
	}
}

// proofsAfterGo makes root/GO, gives any survivor time to act, and fails for
// each PROOF file.
func proofsAfterGo(t *testing.T, root, what string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, "GO"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(700 * time.Millisecond)
	m, _ := filepath.Glob(filepath.Join(root, "PROOF-*"))
	for _, p := range m {
		if !strings.HasSuffix(p, ".skipped") {
			t.Errorf("a payload ran after %s: %s", what, filepath.Base(p))
		}
	}
}

// TestSandboxBackgroundDies: whatever a command leaves running is gone when
// its call returns (the helper is the PID namespace's init).
func TestSandboxBackgroundDies(t *testing.T) {
	e, root := newSandbox(t, DefaultPolicy())
	for _, script := range escapes(root) {
		start := time.Now()
		res := sh(t, e, script)
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%q took %v: the call should return as soon as the shell exits", script, d)
		}
		_ = res
	}
	if s := survivors(root); len(s) > 0 {
		t.Errorf("processes survived their call:\n%s", strings.Join(s, "\n"))
	}
	proofsAfterGo(t, root, "its call returned")
}

// TestSandboxKilledParent: kill -9 of pincer (here a stand-in, this test
// binary in parent mode) mid-call takes the command and everything it started
// with it.
func TestSandboxKilledParent(t *testing.T) {
	root := t.TempDir()
	started := filepath.Join(root, "started")
	var lines []string
	for _, l := range escapes(root) {
		if !strings.Contains(l, "kill -9") { // it would kill the others early
			lines = append(lines, l)
		}
	}
	script := strings.Join(append(lines, "touch "+started, "sleep 30"), "\n")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "PINCER_SANDBOX_TEST_PARENT="+root, "PINCER_SANDBOX_TEST_SCRIPT="+script)
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
			t.Fatalf("the sandboxed command never started: %s", out.String())
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
		t.Errorf("processes survived kill -9 of their pincer:\n%s", strings.Join(left, "\n"))
	}
	proofsAfterGo(t, root, "pincer was killed")
}

// TestSandboxNoCapabilities: a root command has no capability left, cannot
// make device nodes, mount, or change the namespace's limits.
func TestSandboxNoCapabilities(t *testing.T) {
	e, root := newSandbox(t, DefaultPolicy())
	res := sh(t, e, "grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb):' /proc/self/status")
	for _, line := range strings.Split(strings.TrimSpace(res.Output), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 || strings.Trim(f[1], "0") != "" {
			t.Errorf("capabilities left: %q", line)
		}
	}
	if !strings.Contains(res.Output, "CapBnd") {
		t.Fatalf("no capability lines: %q", res.Output)
	}
	for _, attack := range []string{
		"mknod " + filepath.Join(root, "c") + " c 1 3",
		"mknod ./mem c 1 1",
		"mknod ./sda b 8 0",
		"mknod /tmp/" + randName("pincer-dev-") + " b 7 0",
		"mknod /dev/shm/" + randName("pincer-dev-") + " c 1 3",
		"python3 -c 'import os,stat; os.mknod(\"kmsg\", stat.S_IFCHR|0o600, os.makedev(1, 11))'",
		"mount -t tmpfs none " + root,
		"umount /proc",
		"echo 4194304 > /proc/sys/kernel/pid_max",
		"unshare -m true",
		"chroot / true",
		"mkdir ./d && mount --bind /etc ./d",
	} {
		if r := sh(t, e, attack); r.ExitCode == 0 {
			t.Errorf("%q succeeded: %q", attack, r.Output)
		}
	}
	entries, _ := os.ReadDir(root)
	for _, en := range entries {
		if en.Type()&(os.ModeDevice|os.ModeCharDevice) != 0 {
			t.Errorf("a device node was made: %s", en.Name())
		}
	}
	// FIFOs and sockets are not devices: still allowed.
	if r := sh(t, e, "mkfifo ./fifo && test -p ./fifo"); r.ExitCode != 0 {
		t.Errorf("mkfifo failed: %q", r.Output)
	}
}

// TestSandboxProcessLimit: a command cannot have more than MaxProcesses
// processes (as root too), and a fork bomb ends with its call.
func TestSandboxProcessLimit(t *testing.T) {
	if !installed("python3") {
		t.Skip("python3 not installed")
	}
	pol := DefaultPolicy()
	pol.MaxProcesses = 300
	e, _ := newSandbox(t, pol)
	res := sh(t, e, `python3 -c '
import os, time
n = 0
try:
    for i in range(1500):
        if os.fork() == 0:
            time.sleep(3); os._exit(0)
        n += 1
    print("not stopped", n)
except OSError as e:
    print("stopped at", n, e)
'`)
	if !strings.Contains(res.Output, "stopped at") || strings.Contains(res.Output, "not stopped") {
		t.Fatalf("1500 forks with a limit of 300: %q", res.Output)
	}
	var n int
	fmt.Sscanf(res.Output[strings.Index(res.Output, "stopped at"):], "stopped at %d", &n)
	if n > 300 || n < 100 {
		t.Errorf("stopped after %d processes, want about 300", n)
	}
	// Pids are per namespace: the command is (nearly) alone.
	res = sh(t, e, "echo $$; ls /proc | grep -c '^[0-9]'")
	var pid, count int
	if _, err := fmt.Sscanf(res.Output, "%d\n%d", &pid, &count); err != nil || pid > 30 || count > 5 {
		t.Errorf("pid and process count in the namespace: %q (want a small pid, the helper, bash, ls and grep)", res.Output)
	}
}
