package sandbox

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startTmux starts a real tmux server on the private socket name, its
// environment extended with env, and returns the socket's path; the server is
// killed when the test ends.
func startTmux(t *testing.T, name string, env ...string) string {
	t.Helper()
	run := func(args ...string) string {
		cmd := exec.Command("tmux", append([]string{"-L", name}, args...)...)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("-f", "/dev/null", "new-session", "-d", "-s", name, "-x", "80", "-y", "24", "sh")
	t.Cleanup(func() { exec.Command("tmux", "-L", name, "kill-server").Run() })
	sock := run("display-message", "-p", "#{socket_path}")
	// The person's screen shows a token the model must not read.
	run("send-keys", "-t", name+":0", "echo PANE-TOKEN-"+name, "Enter")
	return sock
}

// TestSandboxTerminalMultiplexers: a sandboxed command, with the network off
// and on, can neither type into nor read the person's tmux (a real server on
// a private socket name, under /tmp/tmux-UID and under $TMUX_TMPDIR): no
// send-keys, new-window, run-shell or capture-pane by name, by -S path, by an
// inherited $TMUX, no raw connect() (python3, socat), no listing of the
// socket directory. Each typed-in command would touch a marker file.
func TestSandboxTerminalMultiplexers(t *testing.T) {
	if !installed("tmux") {
		t.Skip("tmux not installed")
	}
	t.Setenv("PINCER_HOME", t.TempDir())
	markers := t.TempDir()
	for _, srv := range []struct{ name, tmpdir string }{
		{"default", ""},
		{"tmuxtmpdir", t.TempDir()},
	} {
		t.Run(srv.name, func(t *testing.T) {
			name := fmt.Sprintf("pincer-attack-%d", rand.Uint32())
			var env []string
			if srv.tmpdir != "" {
				t.Setenv("TMUX_TMPDIR", srv.tmpdir)
				env = append(env, "TMUX_TMPDIR="+srv.tmpdir)
			} else {
				os.Unsetenv("TMUX_TMPDIR")
			}
			sock := startTmux(t, name, env...)
			t.Setenv("TMUX", sock+",1,0") // pincer itself runs inside that tmux
			dir := filepath.Dir(sock)
			for _, network := range []bool{false, true} {
				pol := DefaultPolicy()
				pol.Network = network
				pol.EnvAllow = []string{"TMUX", "TMUX_TMPDIR"}
				e, _ := newSandbox(t, pol)
				tag := fmt.Sprintf("%s-net%v", srv.name, network)
				mark := func(form string) string { return filepath.Join(markers, tag+"-"+form) }
				tg := name + ":0"
				attacks := map[string]string{
					"send-keys":  fmt.Sprintf("tmux -L %s send-keys -t %s 'touch %s' Enter", name, tg, mark("send-keys")),
					"new-window": fmt.Sprintf("tmux -L %s new-window -t %s 'touch %s'", name, name, mark("new-window")),
					"run-shell":  fmt.Sprintf("tmux -L %s run-shell 'touch %s'", name, mark("run-shell")),
					"dash-S":     fmt.Sprintf("tmux -S %s send-keys -t %s 'touch %s' Enter", sock, tg, mark("dash-S")),
					"inherited":  fmt.Sprintf(`tmux send-keys -t %s 'touch %s' Enter`, tg, mark("inherited")),
					"set-TMUX":   fmt.Sprintf(`TMUX=%s,1,0 tmux send-keys -t %s 'touch %s' Enter`, sock, tg, mark("set-TMUX")),
					"python3":    fmt.Sprintf(`python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect("%s"); print("CONNECTED-"+"OK")'`, sock),
					"socat":      fmt.Sprintf(`command -v socat >/dev/null && socat -u OPEN:/dev/null UNIX-CONNECT:%s && echo CONNECTED-OK`, sock),
					"capture":    fmt.Sprintf("tmux -L %s capture-pane -p -t %s", name, tg),
					"capture-S":  fmt.Sprintf("tmux -S %s capture-pane -p -t %s", sock, tg),
					"ls":         fmt.Sprintf("ls -la %s; find %s -maxdepth 1", dir, dir),
				}
				if srv.tmpdir == "" {
					attacks["ls-glob"] = "ls -la /tmp/tmux-*/"
				}
				for form, script := range attacks {
					out := sh(t, e, script).Output
					leaks := []string{"PANE-TOKEN-" + name, "CONNECTED-OK"}
					if strings.HasPrefix(form, "ls") {
						leaks = append(leaks, name) // elsewhere tmux's own errors name the socket
					}
					for _, leak := range leaks {
						if strings.Contains(out, leak) {
							t.Errorf("%s %s: the sandboxed command reached the person's tmux (%q): %.300q", tag, form, leak, out)
							break
						}
					}
				}
			}
			// Commands typed into the person's shell run after a moment.
			deadline := time.Now().Add(2 * time.Second)
			for time.Now().Before(deadline) {
				time.Sleep(100 * time.Millisecond)
			}
			ents, _ := os.ReadDir(markers)
			for _, m := range ents {
				t.Errorf("a sandboxed command ran a command in the person's tmux: marker %s exists", m.Name())
				os.Remove(filepath.Join(markers, m.Name()))
			}
		})
	}
}
