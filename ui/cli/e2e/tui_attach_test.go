package e2e

// End-to-end test of attaching: a second workbench opened on a session the
// first one is running approves its pending Bash call, and the first process
// runs it.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
)

// workbenchScript writes a script that runs the workbench in e's repository
// with extra flags, then keeps the window open.
func workbenchScript(t *testing.T, e *env, name string, extra ...string) string {
	t.Helper()
	script := filepath.Join(t.TempDir(), name+".sh")
	body := fmt.Sprintf(`#!/bin/sh
cd '%s' || exit 1
export PINCER_HOME='%s' PINCER_API_KEY=test-key PINCER_MODEL=fake/test-model PINCER_STORE_IDLE=30s LANG=C.UTF-8 LC_ALL=C.UTF-8
'%s' --base-url '%s' --no-sandbox %s 2>'%s'
echo "pincer exited with $?"
exec sleep 600
`, e.repo, e.home, pincerBin, e.fake.BaseURL(), strings.Join(extra, " "), filepath.Join(e.home, name+"-stderr.txt"))
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script
}

// window is one tmux session of the test's private server.
type window struct {
	s    *tmuxSession
	name string
}

func (w window) keys(keys ...string) {
	w.s.t.Helper()
	if out, err := w.s.run(append([]string{"send-keys", "-t", w.name}, keys...)...); err != nil {
		w.s.t.Fatalf("send-keys %v: %v\n%s", keys, err, out)
	}
}

func (w window) typeText(text string) {
	w.s.t.Helper()
	if out, err := w.s.run("send-keys", "-t", w.name, "-l", text); err != nil {
		w.s.t.Fatalf("send-keys -l: %v\n%s", err, out)
	}
}

func (w window) waitText(texts ...string) string {
	w.s.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		out, _ := w.s.run("capture-pane", "-p", "-t", w.name)
		ok := true
		for _, t := range texts {
			ok = ok && strings.Contains(out, t)
		}
		if ok {
			return out
		}
		if time.Now().After(deadline) {
			w.s.t.Fatalf("%s: timed out waiting for %q; window:\n%s", w.name, texts, out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestTUIAttachApprovesAnotherProcessesCall(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not on PATH")
	}
	e := newEnv(t,
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c1", Name: "Bash", Args: `{"command":"touch marker"}`}}},
		openaitest.Reply{Text: "A is done"},
	)
	tm := newTmux(t, 160, 50, workbenchScript(t, e, "a"))
	a := window{tm, "main"}
	a.waitText("1 Transcript", "· idle ·")
	a.typeText("make the marker")
	a.keys("Enter")
	a.waitText("3 Approvals (1)", "touch marker", "awaiting approval")

	out, _, code := e.run("sessions", "--json")
	var list []struct{ ID string }
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 {
		t.Fatalf("sessions: %d %s", code, out)
	}
	if o, err := tm.run("new-session", "-d", "-s", "b", "-x", "160", "-y", "50",
		workbenchScript(t, e, "b", "--session", list[0].ID)); err != nil {
		t.Fatalf("tmux new-session b: %v\n%s", err, o)
	}
	b := window{tm, "b"}
	sc := b.waitText("3 Approvals (1)", "awaiting approval", "by pid ")
	if strings.Contains(sc, "interrupted") {
		t.Fatalf("B shows A's live turn as interrupted:\n%s", sc)
	}
	b.keys("M-3")
	time.Sleep(700 * time.Millisecond) // a person reads the request (an answer needs it on screen 400 ms)
	b.keys("y")
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(e.repo, "marker")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			out, _ := tm.run("capture-pane", "-p", "-t", "main")
			t.Fatalf("A never ran the command B approved; A's window:\n%s", out)
		}
		time.Sleep(50 * time.Millisecond)
	}
	a.waitText("A is done", "3 Approvals (0)")
	b.waitText("A is done", "3 Approvals (0)")
	out, _, _ = e.run("audit", "--json")
	if !strings.Contains(out, "attached") {
		t.Errorf("the audit trail does not say the approval came from the attached workbench:\n%s", out)
	}
	for _, w := range []window{a, b} {
		w.keys("C-c")
		w.keys("C-c")
		w.waitText("pincer exited with 0")
	}
}
