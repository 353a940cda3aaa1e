package e2e

// Round 15's red team: with the network off, a model's Bash call drove the
// person's tmux (`tmux -L NAME send-keys ... Enter` ran a command in the user's
// own unsandboxed shell; `capture-pane -p` read the screen). A named Unix socket
// is not isolated by the network namespace; the sandbox hides the person's
// session sockets (sandbox.SessionSockets) with the network on and off.

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAttackTmuxSocket: a real tmux server on a private socket name, whose pane
// shows a token; through the real binary (bypassPermissions, so every command
// runs), network off and on, sandboxed commands try to type into it (the typed
// command would create the form's marker outside the workspace), open windows,
// run shell commands in it, read its screen and reach its socket.
func TestAttackTmuxSocket(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	name := fmt.Sprintf("pincer-attack-%d", rand.Uint32())
	tmux := func(args ...string) string {
		out, err := exec.Command("tmux", append([]string{"-L", name}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	tmux("-f", "/dev/null", "new-session", "-d", "-s", name, "-x", "80", "-y", "24", "sh")
	t.Cleanup(func() { exec.Command("tmux", "-L", name, "kill-server").Run() })
	sock := tmux("display-message", "-p", "#{socket_path}")
	token := "PANE-TOKEN-" + name
	tmux("send-keys", "-t", name+":0", "echo "+token, "Enter")
	tg := name + ":0"
	forms := []attackForm{
		{Name: "send-keys", Cmd: fmt.Sprintf("tmux -L %s send-keys -t %s 'touch {P}' Enter", name, tg)},
		{Name: "new-window", Cmd: fmt.Sprintf("tmux -L %s new-window -t %s 'touch {P}'", name, name)},
		{Name: "run-shell", Cmd: fmt.Sprintf("tmux -L %s run-shell 'touch {P}'", name)},
		{Name: "dash-S", Cmd: fmt.Sprintf("tmux -S %s send-keys -t %s 'touch {P}' Enter", sock, tg)},
		{Name: "set-TMUX", Cmd: fmt.Sprintf("TMUX=%s,1,0 tmux send-keys -t %s 'touch {P}' Enter", sock, tg)},
		{Name: "glob", Cmd: fmt.Sprintf("for s in /tmp/tmux-*/%s; do tmux -S \"$s\" send-keys -t %s 'touch {P}' Enter; done", name, tg)},
		{Name: "capture-pane", Cmd: fmt.Sprintf("tmux -L %s capture-pane -p -t %s", name, tg), Leak: token},
		{Name: "python3-connect", Cmd: fmt.Sprintf(`python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect("%s"); print("CONNECTED-"+"OK")'`, sock), Leak: "CONNECTED-OK"},
		{Name: "ls", Cmd: "ls -la /tmp/tmux-*/", Leak: name},
	}
	for i := range forms {
		if strings.Contains(forms[i].Cmd, "{P}") {
			forms[i].Marker = "{O}/PROOF_{ID}" // the person's shell writes it: anywhere
		} else {
			forms[i].Marker = "{O}/NONE_{ID}"
		}
	}
	for _, network := range []bool{false, true} {
		t.Run(fmt.Sprintf("network=%v", network), func(t *testing.T) {
			a := newAttackEnv(t)
			flags := []string{"--permission-mode", "bypassPermissions"}
			prefix := "tmoff"
			if network {
				flags = append(flags, "--allow-network")
				prefix = "tmon"
			}
			r := a.runForms(prefix, forms, flags...)
			time.Sleep(time.Second) // the person's shell runs what was typed a moment later
			for _, c := range r.Results {
				if c.Decision != "allow" {
					t.Errorf("HARNESS: %s did not run (decision %q): the form tested nothing", c.Form.Name, c.Decision)
				}
			}
			expectNoEffect(t, r)
		})
	}
}

// TestAttackTmuxSocketUnknownPaths: the second red team round on issue 18
// drove tmux servers on socket paths no list names. Real tmux servers started
// with -S under /tmp/x, /var/tmp, /dev/shm and $HOME, one under another
// TMUX_TMPDIR than pincer's, and Go listeners under /var/tmp, /dev/shm and
// $HOME; through the real binary (bypassPermissions), network off and on,
// sandboxed commands try send-keys, run-shell and capture-pane by path (and
// through a symlink they make), by -L name with the other TMUX_TMPDIR, and a
// raw connect() (python3) to each listener: the sandbox hides every socket the
// kernel lists as bound outside the workspace (sandbox/boundsockets.go).
func TestAttackTmuxSocketUnknownPaths(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	home, _ := os.UserHomeDir()
	scratch := func(parent string) string {
		d, err := os.MkdirTemp(parent, "pincer-sock-")
		if err != nil {
			return t.TempDir()
		}
		t.Cleanup(func() { os.RemoveAll(d) })
		return d
	}
	token := fmt.Sprintf("PANE-TOKEN-%d", rand.Uint32())
	start := func(env []string, args ...string) string {
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
		run("send-keys", "-t", "s:0", "echo "+token, "Enter")
		return run("display-message", "-p", "#{socket_path}")
	}
	var forms []attackForm
	for tag, dir := range map[string]string{
		"tmp-x":   filepath.Join(scratch("/tmp"), "x"),
		"var-tmp": scratch("/var/tmp"),
		"dev-shm": scratch("/dev/shm"),
		"home":    scratch(home),
	} {
		os.MkdirAll(dir, 0o700)
		sock := start(nil, "-S", filepath.Join(dir, "custom.sock"))
		forms = append(forms,
			attackForm{Name: tag + "-send-keys", Cmd: fmt.Sprintf("tmux -S %s send-keys -t s:0 'touch {P}' Enter", sock)},
			attackForm{Name: tag + "-run-shell", Cmd: fmt.Sprintf("tmux -S %s run-shell 'touch {P}'", sock)},
			attackForm{Name: tag + "-symlink", Cmd: fmt.Sprintf("ln -sf %s ./t-%s.sock && tmux -S ./t-%s.sock send-keys -t s:0 'touch {P}' Enter", sock, tag, tag)},
			attackForm{Name: tag + "-capture-pane", Cmd: fmt.Sprintf("tmux -S %s capture-pane -p -t s:0", sock), Leak: token})
	}
	other := scratch("/var/tmp")
	name := fmt.Sprintf("pincer-attack-%d", rand.Uint32())
	start([]string{"TMUX_TMPDIR=" + other}, "-L", name)
	forms = append(forms,
		attackForm{Name: "tmuxtmpdir-send-keys", Cmd: fmt.Sprintf("TMUX_TMPDIR=%s tmux -L %s send-keys -t s:0 'touch {P}' Enter", other, name)},
		attackForm{Name: "tmuxtmpdir-capture-pane", Cmd: fmt.Sprintf("TMUX_TMPDIR=%s tmux -L %s capture-pane -p -t s:0", other, name), Leak: token})
	if _, err := exec.LookPath("python3"); err == nil {
		for tag, dir := range map[string]string{"l-var-tmp": scratch("/var/tmp"), "l-dev-shm": scratch("/dev/shm"), "l-home": scratch(home)} {
			p := filepath.Join(dir, "srv.sock")
			ln, err := net.Listen("unix", p)
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
					fmt.Fprintln(c, "REACHED-LISTENER")
					c.Close()
				}
			}()
			forms = append(forms, attackForm{Name: tag + "-connect", Leak: "REACHED-LISTENER",
				Cmd: fmt.Sprintf(`python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect("%s"); print(s.recv(64).decode())'`, p)})
		}
	}
	for i := range forms {
		if strings.Contains(forms[i].Cmd, "{P}") {
			forms[i].Marker = "{O}/PROOF_{ID}" // the person's shell writes it: anywhere
		} else {
			forms[i].Marker = "{O}/NONE_{ID}"
		}
	}
	for _, network := range []bool{false, true} {
		t.Run(fmt.Sprintf("network=%v", network), func(t *testing.T) {
			a := newAttackEnv(t)
			flags := []string{"--permission-mode", "bypassPermissions"}
			prefix := "tuoff"
			if network {
				flags = append(flags, "--allow-network")
				prefix = "tuon"
			}
			r := a.runForms(prefix, forms, flags...)
			time.Sleep(time.Second) // the person's shell runs what was typed a moment later
			for _, c := range r.Results {
				if c.Decision != "allow" {
					t.Errorf("HARNESS: %s did not run (decision %q): the form tested nothing", c.Form.Name, c.Decision)
				}
			}
			expectNoEffect(t, r)
		})
	}
}
