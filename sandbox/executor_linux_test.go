package sandbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// newSandbox returns an Executor with pol over a fresh workspace (in the temp
// dir) and the workspace root.
func newSandbox(t *testing.T, pol Policy) (*Executor, string) {
	t.Helper()
	ws, err := NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &Executor{Policy: pol, Workspace: ws}, ws.Root()
}

// sh runs script with bash in the workspace root under e and returns the result.
func sh(t *testing.T, e *Executor, script string) Result {
	t.Helper()
	type ret struct {
		res Result
		err error
	}
	done := make(chan ret, 1)
	go func() {
		res, err := e.Run(context.Background(), Command{
			Path: "bash", Args: []string{"-c", script}, Dir: e.Workspace.Root(),
			Timeout: hangGuard, KillGrace: 200 * time.Millisecond,
		})
		done <- ret{res, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatalf("Run(%q): %v", script, r.err)
		}
		return r.res
	case <-time.After(hangGuard + 10*time.Second):
		t.Fatalf("Run(%q) did not return", script)
		return Result{}
	}
}

// randName returns a name that no other run of the tests uses.
func randName(prefix string) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// homeOutsideTemp returns $HOME, skipping the test when it lies in a directory
// the sandbox leaves writable anyway (a temp dir, as in some CI setups).
func homeOutsideTemp(t *testing.T) string {
	t.Helper()
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home directory")
	}
	home, err = filepath.EvalSymlinks(home)
	if err != nil {
		t.Skip("no home directory")
	}
	for _, tmp := range []string{os.TempDir(), "/tmp"} {
		if real, err := filepath.EvalSymlinks(tmp); err == nil && within(real, home) {
			t.Skipf("$HOME (%s) is inside the temp dir %s, which commands may write", home, real)
		}
	}
	return home
}

// mustExist and mustNotExist check the host's view after a command.
func mustExist(t *testing.T, p string) {
	t.Helper()
	if _, err := os.Lstat(p); err != nil {
		t.Errorf("%s should exist: %v", p, err)
	}
}

func mustNotExist(t *testing.T, p string) {
	t.Helper()
	if _, err := os.Lstat(p); err == nil {
		t.Errorf("%s exists: the sandbox let a command create it", p)
		_ = os.RemoveAll(p)
	}
}

func TestSandboxWrites(t *testing.T) {
	e, root := newSandbox(t, DefaultPolicy())
	home := homeOutsideTemp(t)
	inHome := filepath.Join(home, randName("pincer-sandbox-test-"))
	// A directory added to the workspace (--add-dir) is writable too.
	added := filepath.Join(home, randName("pincer-sandbox-added-"))
	if err := os.Mkdir(added, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(added) })
	if err := e.Workspace.AddDir(added); err != nil {
		t.Fatal(err)
	}
	inEtc := filepath.Join("/etc", randName("pincer-sandbox-test-"))
	inTmp := filepath.Join("/tmp", randName("pincer-sandbox-test-"))
	t.Cleanup(func() { os.Remove(inHome); os.Remove(inEtc); os.Remove(inTmp) })
	if err := os.Symlink(home, filepath.Join(root, "home-link")); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name   string
		script string
		ok     bool
		exists string // path that must exist afterwards (ok) or must not (failure)
	}{
		{name: "inside the workspace", script: "mkdir -p a/b && echo hi > a/b/c.txt", ok: true, exists: filepath.Join(root, "a", "b", "c.txt")},
		{name: "new top-level entry", script: "touch top.txt && mv top.txt moved.txt", ok: true, exists: filepath.Join(root, "moved.txt")},
		{name: "in /tmp", script: "touch " + inTmp, ok: true, exists: inTmp},
		{name: "in an added dir", script: "mkdir " + filepath.Join(added, "d"), ok: true, exists: filepath.Join(added, "d")},
		{name: "stdout and stderr devices", script: "echo x > /dev/stdout && echo y > /dev/stderr && echo z > /dev/null", ok: true},
		{name: "in $HOME", script: `touch "$HOME/` + filepath.Base(inHome) + `"`, exists: inHome},
		{name: "in /etc", script: "touch " + inEtc, exists: inEtc},
		{name: "through a symlink out of the workspace", script: "touch home-link/" + filepath.Base(inHome), exists: inHome},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := sh(t, e, tt.script)
			if tt.ok {
				if res.ExitCode != 0 {
					t.Fatalf("exit %d, want 0; output %q", res.ExitCode, res.Output)
				}
				if tt.exists != "" {
					mustExist(t, tt.exists)
				}
				return
			}
			if res.ExitCode == 0 {
				t.Errorf("exit 0, want a failure; output %q", res.Output)
			}
			if !strings.Contains(res.Output, "Permission denied") {
				t.Errorf("output %q, want a permission error", res.Output)
			}
			mustNotExist(t, tt.exists)
		})
	}
}

func TestSandboxEnvironment(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test-openai")
	t.Setenv("PINCER_API_KEY", "pk-test-pincer")
	t.Setenv("ANTHROPIC_API_KEY", "ak-test-anthropic")
	t.Setenv("PINCER_TEST_UNLISTED", "unlisted")
	t.Setenv("PINCER_TEST_ALLOWED", "allowed")
	t.Setenv("LANG", "C.UTF-8")
	t.Setenv("TZ", "UTC")
	pol := DefaultPolicy()
	pol.EnvAllow = []string{"PINCER_TEST_ALLOWED"}
	sandboxed, _ := newSandbox(t, pol)
	plain, _ := newSandbox(t, Policy{EnvAllow: pol.EnvAllow}) // helper for rlimits only
	for name, e := range map[string]*Executor{"sandboxed": sandboxed, "rlimits only": plain} {
		t.Run(name, func(t *testing.T) {
			res := sh(t, e, "env")
			for _, secret := range []string{"OPENAI_API_KEY", "PINCER_API_KEY", "ANTHROPIC_API_KEY", "PINCER_TEST_UNLISTED", "sk-test", "pk-test", "ak-test"} {
				if strings.Contains(res.Output, secret) {
					t.Errorf("the command saw %s:\n%s", secret, res.Output)
				}
			}
			for _, kv := range []string{"LANG=C.UTF-8", "TZ=UTC", "PINCER_TEST_ALLOWED=allowed", "PATH=", "HOME=", "PAGER=cat"} {
				if !strings.Contains(res.Output, kv) {
					t.Errorf("the command did not see %s:\n%s", kv, res.Output)
				}
			}
		})
	}
}

func TestSandboxTimeoutKillsGrandchildren(t *testing.T) {
	e, root := newSandbox(t, DefaultPolicy())
	// A grandchild that ignores SIGTERM, with a child of its own.
	script := `bash -c 'trap "" TERM; sleep 100 & wait' & sleep 100 # ` + root
	start := time.Now()
	res, err := e.Run(context.Background(), Command{
		Path: "bash", Args: []string{"-c", script}, Dir: root,
		Timeout: 500 * time.Millisecond, KillGrace: 200 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !res.TimedOut {
		t.Fatalf("TimedOut = false after %v; result %+v", time.Since(start), res)
	}
	// The pids are the namespace's; look for the processes by their
	// command line (which names the workspace) instead.
	for end := time.Now().Add(2 * time.Second); len(survivors(root)) > 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("still alive:\n%s", strings.Join(survivors(root), "\n"))
		}
	}
}

func TestSandboxGoTest(t *testing.T) {
	if !installed("go") {
		t.Skip("go is not installed")
	}
	e, root := newSandbox(t, DefaultPolicy())
	files := map[string]string{
		"go.mod":         "module example.com/tiny\n\ngo 1.22\n",
		"tiny.go":        "package tiny\n\nfunc Add(a, b int) int { return a + b }\n",
		"tiny_test.go":   "package tiny\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal(\"bad sum\")\n\t}\n}\n",
		"cmd/x/main.go":  "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"built\") }\n",
		"testdata/.keep": "",
	}
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := sh(t, e, "go test -count=1 ./... && go build -o bin/x ./cmd/x && ./bin/x")
	if res.ExitCode != 0 || !strings.Contains(res.Output, "ok  \texample.com/tiny") || !strings.Contains(res.Output, "built") {
		t.Fatalf("go test in the sandbox: exit %d\n%s", res.ExitCode, res.Output)
	}
	elsewhere := filepath.Join(homeOutsideTemp(t), randName("pincer-sandbox-test-"))
	t.Cleanup(func() { os.Remove(elsewhere) })
	res = sh(t, e, "echo x > "+elsewhere)
	if res.ExitCode == 0 {
		t.Errorf("a write to %s succeeded", elsewhere)
	}
	mustNotExist(t, elsewhere)
}

func TestSandboxNetwork(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
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
	script := fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d && echo connected", port)

	allowed := DefaultPolicy()
	allowed.Network = true
	on, _ := newSandbox(t, allowed)
	if res := sh(t, on, script); res.ExitCode != 0 || !strings.Contains(res.Output, "connected") {
		t.Fatalf("with the network allowed the connection failed: exit %d %q", res.ExitCode, res.Output)
	}
	pol := DefaultPolicy() // the network is off by default
	off, _ := newSandbox(t, pol)
	if res := sh(t, off, script); res.ExitCode == 0 || strings.Contains(res.Output, "connected") {
		t.Fatalf("with the network cut the connection succeeded: exit %d %q", res.ExitCode, res.Output)
	}
	// Without network namespaces, Landlock blocks TCP (and says so).
	fallback, _ := newSandbox(t, pol)
	fallback.probe = func(helper []string) Report {
		r := probeWith(helper)
		r.NetNamespace, r.NetNamespaceError = false, "disabled by the test"
		return r
	}
	if res := sh(t, fallback, script); res.ExitCode == 0 || !strings.Contains(res.Output, "Permission denied") {
		t.Fatalf("with Landlock's TCP rules the connection did not fail as denied: exit %d %q", res.ExitCode, res.Output)
	}
	if r, _ := fallback.Report(); !strings.Contains(r.String(), "only TCP is blocked") {
		t.Fatalf("the fallback is not reported:\n%s", r)
	}
	// Loopback inside the namespace is up: a server the command starts is reachable.
	if !installed("python3") {
		return
	}
	inner := `python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
c = socket.create_connection(s.getsockname()); print("inner loopback ok")'`
	if res := sh(t, off, inner); res.ExitCode != 0 || !strings.Contains(res.Output, "inner loopback ok") {
		t.Fatalf("loopback inside the namespace: exit %d %q", res.ExitCode, res.Output)
	}
}

func TestSandboxRlimits(t *testing.T) {
	for _, enabled := range []bool{true, false} {
		t.Run(fmt.Sprintf("enabled=%v", enabled), func(t *testing.T) {
			e, root := newSandbox(t, Policy{Enabled: enabled, Network: true, FileSizeLimit: 1 << 20, CPUTimeLimit: time.Second})
			if res := sh(t, e, "head -c 512K /dev/zero > small"); res.ExitCode != 0 {
				t.Fatalf("a file under the limit: exit %d %q", res.ExitCode, res.Output)
			}
			res := sh(t, e, "head -c 2M /dev/zero > big")
			if res.ExitCode == 0 {
				t.Fatal("writing 2 MiB with a 1 MiB limit succeeded")
			}
			if fi, err := os.Stat(filepath.Join(root, "big")); err != nil || fi.Size() > 1<<20 {
				t.Fatalf("big: %v, size %d", err, fi.Size())
			}
			res = sh(t, e, "while :; do :; done")
			if res.TimedOut || res.ExitCode != 128+24 { // SIGXCPU
				t.Fatalf("a busy loop with a 1 s CPU limit: exit %d, timed out %v", res.ExitCode, res.TimedOut)
			}
		})
	}
}

func TestProbe(t *testing.T) {
	r := Probe()
	t.Log("\n" + r.String())
	if r.LandlockABI < 1 {
		t.Fatalf("Landlock unavailable: %s", r.LandlockError)
	}
	if !strings.Contains(r.String(), fmt.Sprintf("landlock: ABI %d\n", r.LandlockABI)) || !r.Rlimits {
		t.Fatalf("report:\n%s", r)
	}
	if os.Geteuid() == 0 && (!r.NetNamespace || !r.MountNamespace) {
		t.Fatalf("running as root, namespaces should work:\n%s", r)
	}
}
