package sandbox

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// dialCommand makes this test binary a Unix socket client (dialMain): a
// python- and socat-free way for a sandboxed command to connect().
const dialCommand = "test-dial-unix"

// dialMain connects to the socket path, prints the first line it is sent
// and exits 0; 1 when the connection fails.
func dialMain(path string) int {
	c, err := net.DialTimeout("unix", path, 2*time.Second)
	if err != nil {
		fmt.Println("dial:", err)
		return 1
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(2 * time.Second))
	line, _ := bufio.NewReader(c).ReadString('\n')
	fmt.Print(line)
	return 0
}

// listenUnix starts a Go listener on path that sends "REACHED-<tag>" to each
// connection; it is closed when the test ends.
func listenUnix(t *testing.T, path, tag string) {
	t.Helper()
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			fmt.Fprintf(c, "REACHED-%s\n", tag)
			c.Close()
		}
	}()
}

// scratchDir makes a fresh directory under parent (removed when the test
// ends), falling back to a test temp dir when parent is not writable.
func scratchDir(t *testing.T, parent string) string {
	t.Helper()
	d, err := os.MkdirTemp(parent, "pincer-sock-")
	if err != nil {
		return t.TempDir()
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

// TestSandboxUnknownSockets: servers on socket paths pincer knows nothing of
// — real tmux servers started with -S at odd paths and under another
// TMUX_TMPDIR, Go listeners under $HOME, /var/tmp, /dev/shm and /tmp, one
// bound through a symlinked directory, one inside a configured hidden
// directory — cannot be reached from a sandboxed command, network off and on:
// not by tmux (send-keys, run-shell, capture-pane), not by a raw connect()
// (this binary as the client, python3 where installed), not through a
// symlink the command makes to the socket. Controls: each is reachable from
// outside the sandbox, and a listener inside the workspace is reachable from
// inside (the client works there). Each tmux payload would touch a marker.
func TestSandboxUnknownSockets(t *testing.T) {
	t.Setenv("PINCER_HOME", t.TempDir())
	os.Unsetenv("TMUX")
	os.Unsetenv("TMUX_TMPDIR")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	markers := t.TempDir()
	home, _ := os.UserHomeDir()
	cacheParent := filepath.Join(home, ".cache")
	if !isDir(cacheParent) {
		cacheParent = home
	}
	// Go listeners: tag -> path.
	listeners := map[string]string{
		"home-cache": filepath.Join(scratchDir(t, cacheParent), "foo.sock"),
		"var-tmp":    filepath.Join(scratchDir(t, "/var/tmp"), "srv.sock"),
		"dev-shm":    filepath.Join(scratchDir(t, "/dev/shm"), "srv.sock"),
		"tmp":        filepath.Join(scratchDir(t, "/tmp"), "srv.sock"),
	}
	linked := scratchDir(t, "/tmp")
	if err := os.Symlink(scratchDir(t, "/var/tmp"), filepath.Join(linked, "via")); err != nil {
		t.Fatal(err)
	}
	listeners["symlinked-dir"] = filepath.Join(linked, "via", "srv.sock")
	hiddenDir := scratchDir(t, "/var/tmp")
	listeners["in-hidden-dir"] = filepath.Join(hiddenDir, "srv.sock")
	for tag, p := range listeners {
		listenUnix(t, p, tag)
	}
	// tmux servers: tag -> (socket path, how the sandbox names it).
	type tmuxSrv struct{ sock, cli string }
	servers := map[string]tmuxSrv{}
	if installed("tmux") {
		start := func(tag string, env []string, args ...string) string {
			run := func(a ...string) string {
				cmd := exec.Command("tmux", append(args, a...)...)
				cmd.Env = append(os.Environ(), env...)
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("tmux %v: %v: %s", a, err, out)
				}
				return strings.TrimSpace(string(out))
			}
			run("-f", "/dev/null", "new-session", "-d", "-s", "s", "-x", "80", "-y", "24", "sh")
			t.Cleanup(func() { exec.Command("tmux", append(args, "kill-server")...).Run() })
			run("send-keys", "-t", "s:0", "echo PANE-TOKEN-"+tag, "Enter")
			return run("display-message", "-p", "#{socket_path}")
		}
		for tag, dir := range map[string]string{
			"tmux-tmp-custom": filepath.Join(scratchDir(t, "/tmp"), "x"),
			"tmux-var-tmp":    scratchDir(t, "/var/tmp"),
			"tmux-dev-shm":    scratchDir(t, "/dev/shm"),
			"tmux-home":       scratchDir(t, home),
		} {
			os.MkdirAll(dir, 0o700)
			p := filepath.Join(dir, "custom.sock")
			servers[tag] = tmuxSrv{start(tag, nil, "-S", p), "tmux -S " + p}
		}
		other := scratchDir(t, "/var/tmp")
		name := fmt.Sprintf("pincer-attack-%d", rand.Uint32())
		sock := start("tmux-tmpdir", []string{"TMUX_TMPDIR=" + other}, "-L", name)
		servers["tmux-tmpdir"] = tmuxSrv{sock, "TMUX_TMPDIR=" + other + " tmux -L " + name}
	}
	// The controls outside the sandbox: everything is reachable there.
	for tag, p := range listeners {
		if out, err := exec.Command(self, dialCommand, p).CombinedOutput(); err != nil || !strings.Contains(string(out), "REACHED-"+tag) {
			t.Fatalf("control: %s not reachable outside the sandbox: %v %q", tag, err, out)
		}
	}
	for tag, s := range servers {
		if out, err := exec.Command("tmux", "-S", s.sock, "capture-pane", "-p", "-t", "s:0").CombinedOutput(); err != nil && tag != "tmux-tmpdir" {
			t.Fatalf("control: %s not reachable: %v %q", tag, err, out)
		}
	}
	for _, network := range []bool{false, true} {
		pol := DefaultPolicy()
		pol.Network = network
		pol.HiddenPaths = []string{hiddenDir}
		e, root := newSandbox(t, pol)
		listenUnix(t, filepath.Join(root, "dev.sock"), "workspace")
		net := fmt.Sprintf("net%v", network)
		if out := sh(t, e, fmt.Sprintf("%q %s ./dev.sock", self, dialCommand)).Output; !strings.Contains(out, "REACHED-workspace") {
			t.Fatalf("%s: the workspace's own socket is not reachable from inside (the test proves nothing): %q", net, out)
		}
		attacks := map[string]string{}
		for tag, p := range listeners {
			attacks[tag+"-dial"] = fmt.Sprintf("%q %s %q", self, dialCommand, p)
			attacks[tag+"-symlink"] = fmt.Sprintf("ln -sf %q ./l-%s.sock && %q %s ./l-%s.sock", p, tag, self, dialCommand, tag)
			if installed("python3") {
				attacks[tag+"-python3"] = fmt.Sprintf(`python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect("%s"); print(s.recv(64).decode())'`, p)
			}
		}
		for tag, s := range servers {
			mark := func(form string) string { return filepath.Join(markers, net+"-"+tag+"-"+form) }
			attacks[tag+"-send-keys"] = fmt.Sprintf("%s send-keys -t s:0 'touch %s' Enter", s.cli, mark("send-keys"))
			attacks[tag+"-run-shell"] = fmt.Sprintf("%s run-shell 'touch %s'", s.cli, mark("run-shell"))
			attacks[tag+"-capture"] = fmt.Sprintf("%s capture-pane -p -t s:0", s.cli)
			attacks[tag+"-symlink"] = fmt.Sprintf("ln -sf %q ./t-%s.sock && tmux -S ./t-%s.sock send-keys -t s:0 'touch %s' Enter", s.sock, tag, tag, mark("symlink"))
			attacks[tag+"-dial"] = fmt.Sprintf("%q %s %q && echo CONNECTED-OK", self, dialCommand, s.sock)
		}
		for form, script := range attacks {
			out := sh(t, e, script).Output
			for _, leak := range []string{"REACHED-", "PANE-TOKEN-", "CONNECTED-OK"} {
				if strings.Contains(out, leak) && !strings.Contains(out, "REACHED-workspace") {
					t.Errorf("%s %s: a sandboxed command reached a socket outside the sandbox (%q): %.300q", net, form, leak, out)
					break
				}
			}
		}
	}
	// Commands typed into a tmux pane run after a moment.
	time.Sleep(time.Second)
	ents, _ := os.ReadDir(markers)
	for _, m := range ents {
		t.Errorf("a sandboxed command ran a command in a tmux outside: marker %s exists", m.Name())
	}
}

// TestSandboxNewlineSocket: a listener whose path holds a newline (the kernel
// prints it raw in /proc/net/unix) is found whole — over sock_diag and by the
// /proc parse — and cannot be reached from a sandboxed command, network off
// and on. Control: reachable outside.
func TestSandboxNewlineSocket(t *testing.T) {
	t.Setenv("PINCER_HOME", t.TempDir())
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(scratchDir(t, "/tmp"), "a\nb")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "s\n0000: 00000002 00000000 00010000 0001 01 99 @x")
	listenUnix(t, p, "newline")
	diag, err := diagUnixNames()
	if err != nil {
		t.Fatalf("sock_diag: %v", err)
	}
	if !slices.Contains(diag, p) {
		t.Errorf("sock_diag does not list %q", p)
	}
	l, err := BoundSockets()
	if err != nil || !slices.Contains(l.Paths, p) {
		t.Errorf("BoundSockets does not list %q: %v", p, err)
	}
	f, err := os.Open(ProcNetUnix)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := parseUnixSockets(f)
	f.Close()
	if err != nil || !slices.Contains(pl.Paths, filepath.Join(filepath.Dir(dir), "a\nb", "s")) && !slices.Contains(pl.Paths, p) {
		t.Errorf("the /proc parse lost the path's start: %q %v", pl.Paths, err)
	}
	if len(pl.Notes) == 0 {
		t.Errorf("the /proc parse read a path with a newline without a note")
	}
	if out, err := exec.Command(self, dialCommand, p).CombinedOutput(); err != nil || !strings.Contains(string(out), "REACHED-newline") {
		t.Fatalf("control: not reachable outside the sandbox: %v %q", err, out)
	}
	for _, network := range []bool{false, true} {
		pol := DefaultPolicy()
		pol.Network = network
		e, _ := newSandbox(t, pol)
		out := sh(t, e, fmt.Sprintf("%q %s %q", self, dialCommand, p)).Output
		if strings.Contains(out, "REACHED-") {
			t.Errorf("network %v: a sandboxed command reached the newline socket: %q", network, out)
		}
	}
}
