package tools

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// shellRecorder records a Shells set's callbacks.
type shellRecorder struct {
	mu      sync.Mutex
	started []ShellInfo
	exited  []ShellInfo
}

func (r *shellRecorder) events() ShellEvents {
	return ShellEvents{
		Started: func(i ShellInfo) { r.mu.Lock(); r.started = append(r.started, i); r.mu.Unlock() },
		Exited:  func(i ShellInfo) { r.mu.Lock(); r.exited = append(r.exited, i); r.mu.Unlock() },
	}
}

func (r *shellRecorder) exitedOf(id string) (ShellInfo, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, i := range r.exited {
		if i.ID == id {
			return i, true
		}
	}
	return ShellInfo{}, false
}

// bgEnv is a test env with a shell set (closed at the test's end).
func bgEnv(t *testing.T) (*Env, string, *shellRecorder) {
	t.Helper()
	env, root := newTestEnv(t)
	rec := &shellRecorder{}
	env.Shells = NewShells(rec.events())
	t.Cleanup(env.Shells.Close)
	return env, root, rec
}

var bashIDLine = regexp.MustCompile(`(?m)^bash_id: (bash_[0-9]+)$`)

// startShell runs Bash with run_in_background and returns the bash_id.
func startShell(t *testing.T, env *Env, command string) string {
	t.Helper()
	res, err := runTool(t, Bash{KillGrace: 200 * time.Millisecond}, env, BashInput{Command: command, RunInBackground: true, Description: "test shell"})
	if err != nil {
		t.Fatal(err)
	}
	m := bashIDLine.FindStringSubmatch(res.Output)
	if m == nil || res.IsError {
		t.Fatalf("no bash_id line in %q", res.Output)
	}
	return m[1]
}

// readShell runs BashOutput.
func readShell(t *testing.T, env *Env, id, filter string) string {
	t.Helper()
	res, err := runTool(t, BashOutput{}, env, BashOutputInput{BashID: id, Filter: filter})
	if err != nil {
		t.Fatal(err)
	}
	return res.Output
}

// untilOutput reads shell id until the accumulated output contains want.
func untilOutput(t *testing.T, env *Env, id, want string) string {
	t.Helper()
	var all strings.Builder
	for end := time.Now().Add(15 * time.Second); time.Now().Before(end); time.Sleep(30 * time.Millisecond) {
		all.WriteString(readShell(t, env, id, ""))
		if strings.Contains(all.String(), want) {
			return all.String()
		}
	}
	t.Fatalf("no %q from shell %s: %q", want, id, all.String())
	return ""
}

// TestBackgroundShell: Bash returns at once with the ID, BashOutput returns
// the new output each time with the status, KillShell ends it; the set
// reports the start and the end. Both with and without the sandbox.
func TestBackgroundShell(t *testing.T) {
	for name, pol := range bashPolicies() {
		t.Run(name, func(t *testing.T) {
			env, root, rec := bgEnv(t)
			env.Sandbox = pol
			begin := time.Now()
			id := startShell(t, env, "echo first; until [ -e GO ]; do sleep 0.02; done; echo second; sleep 60")
			if d := time.Since(begin); d > 10*time.Second {
				t.Errorf("Bash with run_in_background took %v", d)
			}
			out := untilOutput(t, env, id, "first")
			if !strings.Contains(out, "<status>running</status>") || strings.Contains(out, "second") {
				t.Errorf("first read: %q", out)
			}
			if again := readShell(t, env, id, ""); !strings.Contains(again, "(no new output)") {
				t.Errorf("a second read returned old output: %q", again)
			}
			if err := os.WriteFile(filepath.Join(root, "GO"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			out = untilOutput(t, env, id, "second")
			if strings.Contains(out, "first") {
				t.Errorf("the read after GO repeats earlier output: %q", out)
			}
			res, err := runTool(t, KillShell{}, env, KillShellInput{ShellID: id})
			if err != nil || res.Output != "Shell "+id+" killed." {
				t.Fatalf("KillShell = %q, %v", res.Output, err)
			}
			if out := readShell(t, env, id, ""); !strings.Contains(out, "<status>killed</status>") || !strings.Contains(out, "<exit_code>") {
				t.Errorf("read after the kill: %q", out)
			}
			if res, _ := runTool(t, KillShell{}, env, KillShellInput{ShellID: id}); !strings.Contains(res.Output, "is not running") {
				t.Errorf("second KillShell: %q", res.Output)
			}
			rec.mu.Lock()
			nStarted := len(rec.started)
			rec.mu.Unlock()
			if nStarted != 1 {
				t.Errorf("%d started callbacks", nStarted)
			}
			if ex, ok := rec.exitedOf(id); !ok || ex.Reason != ShellKilled {
				t.Errorf("exited callback: %+v, %v", ex, ok)
			}
		})
	}
}

// TestBackgroundShellExits: a command that ends by itself is reported
// completed or failed with its status.
func TestBackgroundShellExits(t *testing.T) {
	env, _, rec := bgEnv(t)
	ok := startShell(t, env, "echo done")
	bad := startShell(t, env, "echo broken; exit 7")
	for _, c := range []struct{ id, status, code string }{{ok, "completed", "0"}, {bad, "failed", "7"}} {
		var out string
		for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			out += readShell(t, env, c.id, "")
			if !strings.Contains(out, "running") || strings.Contains(out, "<exit_code>") {
				if _, ok := rec.exitedOf(c.id); ok {
					break
				}
			}
			out = ""
		}
		if !strings.Contains(out, "<status>"+c.status+"</status>") || !strings.Contains(out, "<exit_code>"+c.code+"</exit_code>") {
			t.Errorf("%s: %q", c.id, out)
		}
		if ex, _ := rec.exitedOf(c.id); ex.Reason != ShellExited || fmt.Sprint(ex.ExitCode) != c.code {
			t.Errorf("exited callback %+v", ex)
		}
	}
}

// TestBashOutputFilter: only matching lines are returned; the others are
// consumed.
func TestBashOutputFilter(t *testing.T) {
	env, _, _ := bgEnv(t)
	id := startShell(t, env, "printf 'GET /a 200\\nnoise\\nGET /b 404\\nmore noise\\n'; sleep 60")
	var out string
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end) && !strings.Contains(out, "/b"); time.Sleep(20 * time.Millisecond) {
		out += readShell(t, env, id, `^GET /\w+ \d+$`)
	}
	if !strings.Contains(out, "GET /a 200\n") || !strings.Contains(out, "GET /b 404\n") || strings.Contains(out, "noise") || !strings.Contains(out, "did not match the filter") {
		t.Errorf("filtered output: %q", out)
	}
	if rest := readShell(t, env, id, ""); strings.Contains(rest, "noise") {
		t.Errorf("filtered-out lines came back: %q", rest)
	}
	if _, err := runTool(t, BashOutput{}, env, BashOutputInput{BashID: id, Filter: "("}); err == nil || !strings.Contains(err.Error(), "regular expression") {
		t.Errorf("a bad filter: %v", err)
	}
}

// TestShellsAreTheSessions: another session's shell ID is unknown to a
// call, for reading and for killing (its shell keeps running).
func TestShellsAreTheSessions(t *testing.T) {
	a, _, _ := bgEnv(t)
	b, _, _ := bgEnv(t)
	id := startShell(t, a, "echo secret-of-a; sleep 60")
	untilOutput(t, a, id, "secret-of-a")
	for _, guess := range []string{id, " " + id, strings.ToUpper(id), id + "\n", "../" + id, "*", ".*", ""} {
		if r, err := runTool(t, BashOutput{}, b, BashOutputInput{BashID: guess}); err == nil {
			t.Errorf("BashOutput of %q from another session: %q", guess, r.Output)
		}
		if r, err := runTool(t, KillShell{}, b, KillShellInput{ShellID: guess}); err == nil {
			t.Errorf("KillShell of %q from another session: %q", guess, r.Output)
		}
	}
	if info, _ := a.Shells.Info(id); !info.Running {
		t.Errorf("the other session's attempts ended the shell: %+v", info)
	}
}

// TestShellsClose: Close ends every running shell with session_ended and
// refuses new ones.
func TestShellsClose(t *testing.T) {
	env, _, rec := bgEnv(t)
	marker := fmt.Sprintf("pincer-close-marker-%d", time.Now().UnixNano())
	ids := []string{startShell(t, env, "sleep 61 # "+marker), startShell(t, env, "trap '' TERM; sleep 62 # "+marker)}
	env.Shells.Close()
	for _, id := range ids {
		if ex, ok := rec.exitedOf(id); !ok || ex.Reason != ShellSessionEnded {
			t.Errorf("%s: %+v, %v", id, ex, ok)
		}
	}
	if left := procsWith(marker); len(left) > 0 {
		t.Errorf("processes left after Close: %v", left)
	}
	if _, err := runTool(t, Bash{}, env, BashInput{Command: "echo", RunInBackground: true}); err == nil {
		t.Error("a shell started after Close")
	}
}

// TestShellsLimit: at most MaxRunningShells run at once.
func TestShellsLimit(t *testing.T) {
	env, _, _ := bgEnv(t)
	for i := 0; i < MaxRunningShells; i++ {
		startShell(t, env, "sleep 60")
	}
	if _, err := runTool(t, Bash{}, env, BashInput{Command: "sleep 60", RunInBackground: true}); err == nil || !strings.Contains(err.Error(), "KillShell") {
		t.Errorf("shell %d: %v", MaxRunningShells+1, err)
	}
}

// TestBashOutputHugeOutput: a shell printing far more than is kept costs
// bounded memory; the read says how much was lost and shows the newest.
func TestBashOutputHugeOutput(t *testing.T) {
	env, root, _ := bgEnv(t)
	id := startShell(t, env, "head -c 30000000 /dev/zero | tr '\\0' 'z'; echo; echo TAIL-MARK; touch printed; sleep 60")
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(root, "printed")); err == nil {
			break
		}
	}
	time.Sleep(200 * time.Millisecond) // the pipe's last bytes reach the buffer
	out := readShell(t, env, id, "")
	if !strings.Contains(out, "TAIL-MARK") || !strings.Contains(out, "are lost") || len(out) > 2*BashMaxOutputChars {
		t.Errorf("huge output read (%d bytes): %q", len(out), out[:min(300, len(out))])
	}
}

// procsWith returns the pids of live processes whose command line has s.
func procsWith(s string) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' || e.Name() == fmt.Sprint(os.Getpid()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(b, []byte(s)) {
			continue
		}
		if st, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); bytes.Contains(st, []byte(") Z ")) {
			continue
		}
		out = append(out, e.Name())
	}
	return out
}
