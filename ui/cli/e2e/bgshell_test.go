package e2e

// Issue 14, background shells through the real binary and engine: a
// background `python3 -m http.server` is reachable from a later Bash call of
// the same turn (network on), BashOutput returns its log, KillShell ends it
// and nothing is left in /proc; a background shell ends with pincer's process
// (session_ended), and with a kill -9 of pincer (the parent-death signal).

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
)

// freePort returns a TCP port of 127.0.0.1 that nobody listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// jsonArgs encodes a tool call's arguments.
func jsonArgs(t *testing.T, v map[string]any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// streamLines decodes every stream-json line of out.
func streamLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var evs []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("stream-json line is not JSON: %q", line)
		}
		evs = append(evs, ev)
	}
	return evs
}

// toolOutputs maps each completed tool call's ID to its output.
func toolOutputs(evs []map[string]any) map[string]string {
	out := map[string]string{}
	for _, ev := range evs {
		if ev["type"] == "tool.completed" {
			id, _ := ev["toolCallId"].(string)
			text, _ := ev["output"].(string)
			out[id] = text
		}
	}
	return out
}

// shellEvents returns the shell.* events of evs, as "type reason".
func shellEvents(evs []map[string]any) []string {
	var out []string
	for _, ev := range evs {
		typ, _ := ev["type"].(string)
		if !strings.HasPrefix(typ, "shell.") {
			continue
		}
		b, _ := json.Marshal(ev)
		out = append(out, typ+" "+string(b))
	}
	return out
}

// waitGone waits until no live process's command line names marker and
// returns those left.
func waitGone(marker string) []string {
	var left []string
	for end := time.Now().Add(3 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if left = liveWith(marker); len(left) == 0 {
			break
		}
	}
	return left
}

// liveWith lists the live (not zombie) processes whose command line has marker.
func liveWith(marker string) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' || e.Name() == fmt.Sprint(os.Getpid()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !strings.Contains(string(b), marker) {
			continue
		}
		if st, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); strings.Contains(string(st), ") Z ") {
			continue
		}
		out = append(out, e.Name()+": "+strings.ReplaceAll(string(b), "\x00", " "))
	}
	return out
}

// TestBackgroundHTTPServer is the scenario: a dev server started in
// the background keeps running while the turn goes on.
func TestBackgroundHTTPServer(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	port := freePort(t)
	e := newEnv(t)
	marker := e.repo // in the server's command line (--directory) and the helper's spec
	fetch := fmt.Sprintf(`python3 -c 'import time, urllib.request
for i in range(100):
    try:
        print(urllib.request.urlopen("http://127.0.0.1:%d/hello.txt", timeout=2).read().decode()); break
    except OSError: time.sleep(0.1)
else: print("unreachable")'`, port)
	e.fake.Push(
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "s1", Name: "Bash", Args: jsonArgs(t, map[string]any{
			"command": fmt.Sprintf("python3 -u -m http.server %d --bind 127.0.0.1 --directory %s", port, e.repo), "run_in_background": true, "description": "Serve the repository"})}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "f1", Name: "Bash", Args: jsonArgs(t, map[string]any{"command": fetch})}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "o1", Name: "BashOutput", Args: `{"bash_id":"bash_1"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "k1", Name: "KillShell", Args: `{"shell_id":"bash_1"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "o2", Name: "BashOutput", Args: `{"bash_id":"bash_1"}`}}},
		openaitest.Reply{Text: "Served and stopped."},
	)
	out, stderr, code := e.run(e.runArgs("--permission-mode", "bypassPermissions", "--allow-network", "--output-format", "stream-json", "serve the repo and fetch a file")...)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr, out)
	}
	evs := streamLines(t, out)
	got := toolOutputs(evs)
	if !strings.Contains(got["s1"], "bash_id: bash_1") {
		t.Errorf("Bash in the background: %q", got["s1"])
	}
	if !strings.Contains(got["f1"], "hello world") {
		t.Errorf("the server was not reachable from the next Bash call: %q", got["f1"])
	}
	if !strings.Contains(got["o1"], "<status>running</status>") || !strings.Contains(got["o1"], `"GET /hello.txt HTTP/1.1" 200`) {
		t.Errorf("BashOutput did not return the server's log: %q", got["o1"])
	}
	if got["k1"] != "Shell bash_1 killed." {
		t.Errorf("KillShell: %q", got["k1"])
	}
	if !strings.Contains(got["o2"], "<status>killed</status>") {
		t.Errorf("BashOutput after KillShell: %q", got["o2"])
	}
	shells := shellEvents(evs)
	if len(shells) != 2 || !strings.HasPrefix(shells[0], "shell.started") || !strings.HasPrefix(shells[1], "shell.exited") || !strings.Contains(shells[1], `"reason":"killed"`) {
		t.Errorf("shell events: %v", shells)
	}
	if left := waitGone(marker); len(left) > 0 {
		t.Errorf("processes left after KillShell:\n%s", strings.Join(left, "\n"))
	}
	if c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second); err == nil {
		c.Close()
		t.Errorf("the server still answers on port %d", port)
	}
}

// TestBackgroundShellEndsWithProcess: a background shell nobody killed ends
// when `pincer run` does, reported as session_ended: in the stream, before
// the result (new user r23 #2: it used to end after the stream, unsaid), and
// in the session's log.
func TestBackgroundShellEndsWithProcess(t *testing.T) {
	e := newEnv(t)
	marker := fmt.Sprintf("bg-marker-%d", time.Now().UnixNano())
	e.fake.Push(
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "s1", Name: "Bash", Args: jsonArgs(t, map[string]any{
			"command": "trap '' TERM HUP; sleep 300; echo " + marker, "run_in_background": true})}}},
		openaitest.Reply{Text: "Left it running."},
	)
	out, stderr, code := e.run(e.runArgs("--permission-mode", "bypassPermissions", "--output-format", "stream-json", "start something")...)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr, out)
	}
	evs := streamLines(t, out)
	sid, _ := evs[0]["sessionId"].(string)
	if shells := shellEvents(evs[:len(evs)-1]); len(shells) != 2 || !strings.Contains(shells[1], `"reason":"session_ended"`) {
		t.Errorf("the stream before the result lacks the shell's end: %v", shells)
	}
	last, _ := evs[len(evs)-3]["sequence"].(float64) // before the shell.exited
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	watch := exec.CommandContext(ctx, pincerBin, "sessions", "watch", sid, "--after", fmt.Sprint(int64(last)))
	watch.Dir, watch.Env = e.repo, e.command().Env
	logged, _ := watch.Output()
	if !strings.Contains(string(logged), `"type":"shell.exited"`) || !strings.Contains(string(logged), `"reason":"session_ended"`) {
		t.Errorf("no shell.exited with reason session_ended in the session's log: %s", logged)
	}
	if left := waitGone(marker); len(left) > 0 {
		t.Errorf("processes outlived pincer:\n%s", strings.Join(left, "\n"))
	}
}

// TestAttackBackgroundShellOutlivesKilledPincer: kill -9 of pincer while its
// background shell runs (with payloads that try to get away) leaves nothing
// running, and no payload acts afterwards.
func TestAttackBackgroundShellOutlivesKilledPincer(t *testing.T) {
	e := newEnv(t)
	var lines []string
	for i, f := range backgroundForms() {
		lines = append(lines, strings.ReplaceAll(f.Cmd, "{P}", filepath.Join(e.repo, fmt.Sprintf("PROOF-%d-%s", i, f.Name))))
	}
	started := filepath.Join(e.repo, "started")
	script := strings.Join(append(lines, "touch "+started, "exec sleep 300"), "\n")
	e.fake.Push(
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "s1", Name: "Bash", Args: jsonArgs(t, map[string]any{"command": script, "run_in_background": true})}}},
		openaitest.Reply{Text: "thinking for a long time", Hold: 60 * time.Second},
	)
	cmd := e.command(e.runArgs("--permission-mode", "bypassPermissions", "--output-format", "stream-json", "start and wait")...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	sawStart := false
	for sc.Scan() {
		if strings.Contains(sc.Text(), `"type":"shell.started"`) {
			sawStart = true
			break
		}
	}
	for end := time.Now().Add(15 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if exists(started) {
			break
		}
	}
	if !sawStart || !exists(started) {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("the background shell never started (shell.started seen: %v)", sawStart)
	}
	if n := len(liveWith(e.repo)); n < 5 {
		t.Fatalf("the payloads are not running (%d processes): the test would prove nothing", n)
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	if left := waitGone(e.repo); len(left) > 0 {
		killSurvivors(t, e.repo)
		t.Errorf("processes survived kill -9 of pincer:\n%s", strings.Join(left, "\n"))
	}
	time.Sleep(3500 * time.Millisecond) // past the payloads' sleep 3
	if p := proofFiles(e.repo); len(p) > 0 {
		t.Errorf("payloads ran after pincer was killed: %v", p)
	}
}

// TestAttackBackgroundShellEscapesSandbox: a background shell is confined
// as a foreground command is — no write outside the workspace (many forms),
// none to a protected path, no secret of pincer's environment, no network
// with it off — and its result says the network is its own.
func TestAttackBackgroundShellEscapesSandbox(t *testing.T) {
	e := newEnv(t)
	outside := outsideTemp(t)
	port := freePort(t)
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("HOST-LISTENER-REACHED\n"))
			c.Close()
		}
	}()
	writes := []string{
		`echo x > {O}/PROOF-redirect`,
		`touch {O}/PROOF-touch`,
		`cp /etc/hostname {O}/PROOF-cp`,
		`mkdir {O}/PROOF-mkdir`,
		`ln -s /etc/passwd {O}/PROOF-symlink`,
		`python3 -c 'open("{O}/PROOF-python","w").write("x")'`,
		`perl -e 'open(F, ">", "{O}/PROOF-perl")'`,
		`(sleep 0.2; touch {O}/PROOF-later) &`,
		`setsid sh -c 'sleep 0.2; touch {O}/PROOF-setsid' &`,
		`echo x > .git/hooks/pre-commit`,
		`echo x >> .git/config`,
		`mkdir -p .pincer && echo x > .pincer/config.toml`,
	}
	var script []string
	for _, w := range writes {
		script = append(script, strings.ReplaceAll(w, "{O}", outside)+" 2>/dev/null")
	}
	script = append(script,
		"env | grep -c test-key-secret-value || true",
		fmt.Sprintf(`(exec 3<>/dev/tcp/127.0.0.1/%d && cat <&3) 2>&1 | head -1`, port),
		"echo FINISHED", "sleep 1")
	// The payload is a file, so the permission engine (which asks for a
	// protected path a command names) cannot see it: the sandbox alone stops it.
	e.fake.Push(
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "p1", Name: "Write", Args: jsonArgs(t, map[string]any{"file_path": "payload.sh", "content": strings.Join(script, "\n") + "\n"})}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "s1", Name: "Bash", Args: `{"command":"bash payload.sh","run_in_background":true}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "w1", Name: "Bash", Args: `{"command":"sleep 2"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "o1", Name: "BashOutput", Args: `{"bash_id":"bash_1"}`}}},
		openaitest.Reply{Text: "tried"},
	)
	cmd := e.command(e.runArgs("--permission-mode", "bypassPermissions", "--output-format", "stream-json", "escape")...)
	cmd.Env = append(cmd.Env, "PINCER_TEST_TOKEN=test-key-secret-value")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pincer: %v\n%s", err, out)
	}
	got := toolOutputs(streamLines(t, string(out)))
	if !strings.Contains(got["s1"], "network of its own") {
		t.Errorf("the model is not told the network is its own: %q", got["s1"])
	}
	if !strings.Contains(got["o1"], "FINISHED") {
		t.Fatalf("the payload did not run to its end: %q", got["o1"])
	}
	if strings.Contains(got["o1"], "HOST-LISTENER-REACHED") {
		t.Errorf("a background shell reached the host's localhost with the network off: %q", got["o1"])
	}
	if lines := strings.Split(got["o1"], "\n"); !slicesContain(lines, "0") {
		t.Errorf("the secret variable may have reached the shell: %q", got["o1"])
	}
	time.Sleep(500 * time.Millisecond)
	if p := proofFiles(outside); len(p) > 0 {
		t.Errorf("a background shell wrote outside the workspace: %v", p)
	}
	if b, err := os.ReadFile(filepath.Join(e.repo, ".git", "hooks", "pre-commit")); err == nil {
		t.Errorf("a background shell wrote a git hook: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(e.repo, ".git", "config")); strings.Contains(string(b), "\nx\n") {
		t.Errorf("a background shell appended to .git/config: %q", b)
	}
	if b, err := os.ReadFile(filepath.Join(e.repo, ".pincer", "config.toml")); err == nil {
		t.Errorf("a background shell wrote .pincer/config.toml: %q", b)
	}
}

// slicesContain reports whether lines has s.
func slicesContain(lines []string, s string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) == s {
			return true
		}
	}
	return false
}
