package e2e

// End-to-end test of the workbench: the real pincer binary in a tmux window
// (a private server socket), driven with send-keys and read back with
// capture-pane, against the fake Chat Completions server.

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
)

// tmuxSession is one tmux server of a test, on a socket of its own.
type tmuxSession struct {
	t      *testing.T
	bin    string
	socket string
}

// newTmux starts a private tmux server with one width×height window running
// script; the server is killed when the test ends. It skips the test when
// tmux is not installed.
func newTmux(t *testing.T, width, height int, script string) *tmuxSession {
	t.Helper()
	bin, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not on PATH")
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	s := &tmuxSession{t: t, bin: bin, socket: "pincer-e2e-" + hex.EncodeToString(b[:])}
	t.Cleanup(func() { _, _ = s.run("kill-server") })
	if out, err := s.run("new-session", "-d", "-s", "main", "-x", fmt.Sprint(width), "-y", fmt.Sprint(height), script); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	return s
}

// run runs one tmux command against the private server (no user config,
// UTF-8 forced).
func (s *tmuxSession) run(args ...string) (string, error) {
	cmd := exec.Command(s.bin, append([]string{"-u", "-L", s.socket, "-f", "/dev/null"}, args...)...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// keys sends tmux key names ("Enter", "C-o", "M-3").
func (s *tmuxSession) keys(keys ...string) {
	s.t.Helper()
	if out, err := s.run(append([]string{"send-keys", "-t", "main"}, keys...)...); err != nil {
		s.t.Fatalf("send-keys %v: %v\n%s", keys, err, out)
	}
}

// typeText types text literally.
func (s *tmuxSession) typeText(text string) {
	s.t.Helper()
	if out, err := s.run("send-keys", "-t", "main", "-l", text); err != nil {
		s.t.Fatalf("send-keys -l: %v\n%s", err, out)
	}
}

// screen returns what the window shows now.
func (s *tmuxSession) screen() string {
	out, err := s.run("capture-pane", "-p", "-t", "main")
	if err != nil {
		return "capture-pane: " + err.Error() + "\n" + out
	}
	return out
}

// waitFor polls the window until cond holds, failing after 20 s (a wait, not
// a timing assertion).
func (s *tmuxSession) waitFor(what string, cond func(screen string) bool) string {
	s.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		sc := s.screen()
		if cond(sc) {
			return sc
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("timed out waiting for %s; window:\n%s", what, sc)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitText waits until the window shows every one of texts.
func (s *tmuxSession) waitText(texts ...string) string {
	s.t.Helper()
	return s.waitFor(strings.Join(texts, ", "), func(sc string) bool {
		for _, t := range texts {
			if !strings.Contains(sc, t) {
				return false
			}
		}
		return true
	})
}

// TestTUITmuxEndToEnd drives the workbench the way a person does: a prompt,
// the approval of an edit whose diff shows before it lands, the sessions
// browser, the finished session reopened with its diff, and a clean quit.
func TestTUITmuxEndToEnd(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not on PATH")
	}
	e := newEnv(t,
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c1", Name: "Read", Args: `{"file_path":"hello.txt"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c2", Name: "Edit", Args: `{"file_path":"hello.txt","old_string":"world","new_string":"pincer"}`}}},
		// The fake streams 8-byte pieces: "ab日本" and "語 done" keep whole runes.
		openaitest.Reply{Text: "ab日本語 done"},
	)
	script := filepath.Join(t.TempDir(), "run.sh")
	body := fmt.Sprintf(`#!/bin/sh
cd '%s' || exit 1
export PINCER_HOME='%s' PINCER_API_KEY=test-key PINCER_MODEL=fake/test-model LANG=C.UTF-8 LC_ALL=C.UTF-8
'%s' --base-url '%s' --no-sandbox 2>'%s'
echo "pincer exited with $?"
exec sleep 600
`, e.repo, e.home, pincerBin, e.fake.BaseURL(), filepath.Join(e.home, "stderr.txt"))
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	tm := newTmux(t, 160, 50, script)

	tm.waitText("1 Transcript", "2 Timeline (0)", "3 Approvals (0)", "4 Diff", "· idle ·")
	tm.typeText("change world to pincer")
	tm.keys("Enter")
	sc := tm.waitText("3 Approvals (1)", "Edit hello.txt", "-hello world", "+hello pincer", "awaiting approval")
	if got := e.read("hello.txt"); got != "hello world\n" {
		t.Fatalf("the file changed before approval: %q\n%s", got, sc)
	}
	tm.keys("M-3")
	time.Sleep(700 * time.Millisecond) // a person reads the request (an answer needs it on screen 400 ms)
	tm.keys("y")
	// "││✓": the timeline's column, right of the transcript's border.
	tm.waitText("ab日本語 done", "3 Approvals (0)", "││✓ Edit hello.txt", "· done ·")
	deadline := time.Now().Add(10 * time.Second)
	for e.read("hello.txt") != "hello pincer\n" {
		if time.Now().After(deadline) {
			t.Fatalf("hello.txt = %q after approval", e.read("hello.txt"))
		}
		time.Sleep(20 * time.Millisecond)
	}

	// The sessions browser lists the finished session; Enter reopens it
	// read-only, with its approvals history and its diff.
	tm.keys("C-o")
	tm.waitText("Sessions (1)", "change world to pincer", "Enter open read-only")
	tm.keys("Enter")
	sc = tm.waitText("read-only", "3 Approvals history (1)", "allowed once", "-hello world", "+hello pincer", "ab日本語 done")
	if strings.Contains(sc, "Sessions (") {
		t.Errorf("the browser stayed open:\n%s", sc)
	}

	// Ctrl+C twice quits; the terminal comes back (the alternate screen is
	// gone, the script's next line ran).
	tm.keys("C-c")
	tm.waitText("press Ctrl+C again")
	tm.keys("C-c")
	sc = tm.waitText("pincer exited with 0")
	if strings.Contains(sc, "1 Transcript") || strings.Contains(sc, "Approvals") {
		t.Errorf("the workbench is still on screen after quitting:\n%s", sc)
	}
	if out, _ := tm.run("display-message", "-p", "-t", "main", "#{alternate_on}"); strings.TrimSpace(out) != "0" {
		t.Errorf("the alternate screen is still on (%q)", out)
	}
	if b, _ := os.ReadFile(filepath.Join(e.home, "stderr.txt")); strings.Contains(string(b), "internal error") {
		t.Errorf("stderr: %s", b)
	}
}
