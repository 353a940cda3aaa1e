package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// tmuxServer is a tmux server on a private socket (tmux -L NAME) holding one
// window of a fixed size with the status line off, so the pane is exactly
// Cols×Rows: every agent runs in that same pane, one at a time.
type tmuxServer struct {
	Socket     string
	Cols, Rows int
	target     string
}

// startTmux starts the server with a placeholder process in its pane. It
// fails when a server already runs on that socket (another harness).
func startTmux(socket string, cols, rows int) (*tmuxServer, error) {
	t := &tmuxServer{Socket: socket, Cols: cols, Rows: rows, target: "bench:0.0"}
	if err := t.run("has-session", "-t", "bench"); err == nil {
		return nil, fmt.Errorf("a tmux server on socket %q already has a session bench: is another harness running?", socket)
	}
	if err := t.run("-f", "/dev/null", "new-session", "-d", "-s", "bench", "-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows), placeholder); err != nil {
		return nil, err
	}
	for _, opt := range [][]string{{"status", "off"}, {"window-size", "manual"}, {"remain-on-exit", "on"}, {"history-limit", "0"}} {
		if err := t.run("set-option", "-g", opt[0], opt[1]); err != nil {
			return nil, err
		}
	}
	if err := t.run("resize-window", "-t", "bench", "-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows)); err != nil {
		return nil, err
	}
	size, err := t.output("display-message", "-p", "-t", t.target, "#{pane_width}x#{pane_height}")
	if err != nil {
		return nil, err
	}
	if want := fmt.Sprintf("%dx%d", cols, rows); strings.TrimSpace(size) != want {
		return nil, fmt.Errorf("tmux pane is %s, want %s", strings.TrimSpace(size), want)
	}
	return t, nil
}

// placeholder is what the pane runs between two measured runs.
const placeholder = "exec sleep 1000000"

func (t *tmuxServer) cmd(args ...string) *exec.Cmd {
	return exec.Command("tmux", append([]string{"-L", t.Socket}, args...)...)
}

func (t *tmuxServer) run(args ...string) error {
	out, err := t.cmd(args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("tmux %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}

func (t *tmuxServer) output(args ...string) (string, error) {
	out, err := t.cmd(args...).Output()
	if err != nil {
		return "", fmt.Errorf("tmux %s: %v", strings.Join(args, " "), err)
	}
	return string(out), nil
}

// Kill stops the tmux server (and with it the pane's process).
func (t *tmuxServer) Kill() { _ = t.run("kill-server") }

// ServerPID is the tmux server's process id.
func (t *tmuxServer) ServerPID() int {
	s, _ := t.output("display-message", "-p", "#{pid}")
	n, _ := strconv.Atoi(strings.TrimSpace(s))
	return n
}

// PanePID is the pid of the process in the pane (the agent: it is started
// with exec, so no shell stands between).
func (t *tmuxServer) PanePID() int {
	s, _ := t.output("display-message", "-p", "-t", t.target, "#{pane_pid}")
	n, _ := strconv.Atoi(strings.TrimSpace(s))
	return n
}

// Spawn replaces the pane's process with argv, run in dir with env added
// (KEY=VALUE), and returns the time just before tmux was asked.
func (t *tmuxServer) Spawn(dir string, env []string, argv []string) (time.Time, error) {
	args := []string{"respawn-pane", "-k", "-t", t.target, "-c", dir}
	for _, e := range env {
		args = append(args, "-e", e)
	}
	quoted := make([]string, len(argv))
	for i, a := range argv {
		quoted[i] = shellQuote(a)
	}
	args = append(args, "exec "+strings.Join(quoted, " "))
	start := time.Now()
	return start, t.run(args...)
}

// Clear puts the placeholder back in the pane, ending the agent there (tmux
// sends it SIGHUP), and waits up to 5 s for the agent to be gone, then kills it.
func (t *tmuxServer) Clear() {
	pid := t.PanePID()
	_ = t.run("respawn-pane", "-k", "-t", t.target, placeholder)
	_ = t.run("clear-history", "-t", t.target)
	if pid > 0 {
		waitGone(pid, 5*time.Second)
	}
}

// waitGone waits until pid no longer runs, killing it after d.
func waitGone(pid int, d time.Duration) {
	deadline := time.Now().Add(d)
	for alive(pid) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			deadline = time.Now().Add(time.Hour)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// alive reports whether pid is a running process (not a zombie).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// Capture is the pane's visible text, one line per row.
func (t *tmuxServer) Capture() string {
	s, _ := t.output("capture-pane", "-p", "-t", t.target)
	return s
}

// WaitFor polls the pane until ok(text) holds, returning the time it first
// did, or an error after timeout.
func (t *tmuxServer) WaitFor(timeout time.Duration, ok func(string) bool) (time.Time, error) {
	deadline := time.Now().Add(timeout)
	for {
		s := t.Capture()
		now := time.Now()
		if ok(s) {
			return now, nil
		}
		if now.After(deadline) {
			return now, fmt.Errorf("timed out after %v; the pane shows:\n%s", timeout, s)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// Type sends text as literal keys, one key per call, pausing gap after each.
func (t *tmuxServer) Type(text string, gap time.Duration) error {
	for _, r := range text {
		if err := t.run("send-keys", "-t", t.target, "-l", string(r)); err != nil {
			return err
		}
		time.Sleep(gap)
	}
	return nil
}

// Key sends one named key (Enter, Escape, C-c).
func (t *tmuxServer) Key(name string) error { return t.run("send-keys", "-t", t.target, name) }

// PipeTo starts copying what the pane's process writes to the terminal into
// file (tmux pipe-pane: the bytes as the program wrote them).
func (t *tmuxServer) PipeTo(file string) error {
	_ = os.Remove(file)
	return t.run("pipe-pane", "-O", "-t", t.target, "cat > "+shellQuote(file))
}

// PipeStop ends the pipe and returns how many bytes went through it.
func (t *tmuxServer) PipeStop(file string) (int64, error) {
	if err := t.run("pipe-pane", "-t", t.target); err != nil {
		return 0, err
	}
	// The cat behind the pipe ends on EOF; give it a moment to flush.
	var last int64 = -1
	for i := 0; i < 50; i++ {
		st, err := os.Stat(file)
		if err == nil && st.Size() == last {
			return last, nil
		}
		if err == nil {
			last = st.Size()
		}
		time.Sleep(20 * time.Millisecond)
	}
	if last < 0 {
		return 0, fmt.Errorf("pipe file %s never appeared", file)
	}
	return last, nil
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == '=' || r == ':' || r == ',' || r == '+' ||
			(r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9'))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
