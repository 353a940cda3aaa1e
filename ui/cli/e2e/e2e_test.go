package e2e

// End-to-end tests: the real pincer binary against a fake Chat Completions server
// (core/provider/openai/openaitest) in a temporary git repository, with a private PINCER_HOME.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"pincer/core/agent"
	"pincer/core/provider/openai/openaitest"
)

var pincerBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "pincer-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pincerBin = filepath.Join(dir, "pincer")
	build := exec.Command("go", "build", "-o", pincerBin, "pincer")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building pincer:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// env is one end-to-end setting: a repository, a home and a fake provider.
type env struct {
	t    *testing.T
	repo string
	home string
	fake *openaitest.Server
}

func newEnv(t *testing.T, replies ...openaitest.Reply) *env {
	t.Helper()
	e := &env{t: t, repo: t.TempDir(), home: t.TempDir(), fake: openaitest.New(replies...)}
	t.Cleanup(e.fake.Close)
	e.write("hello.txt", "hello world\n")
	for _, args := range [][]string{
		{"init", "-q"}, {"add", "."}, {"-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "init"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = e.repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return e
}

func (e *env) write(name, content string) {
	e.t.Helper()
	if err := os.WriteFile(filepath.Join(e.repo, name), []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) read(name string) string {
	e.t.Helper()
	b, err := os.ReadFile(filepath.Join(e.repo, name))
	if err != nil {
		e.t.Fatal(err)
	}
	return string(b)
}

func (e *env) command(args ...string) *exec.Cmd {
	cmd := exec.Command(pincerBin, args...)
	cmd.Dir = e.repo
	cmd.Env = append(os.Environ(), "PINCER_HOME="+e.home, "PINCER_API_KEY=test-key", "PINCER_MODEL=fake/test-model",
		"PINCER_STORE_IDLE=30s")
	return cmd
}

// run runs pincer and returns stdout, stderr and the exit code.
func (e *env) run(args ...string) (string, string, int) {
	e.t.Helper()
	cmd := e.command(args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		e.t.Fatalf("run pincer %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

func (e *env) runArgs(extra ...string) []string {
	return append([]string{"run", "--base-url", e.fake.BaseURL()}, extra...)
}

// streamEvent is the part of a stream-json line the tests read.
type streamEvent struct {
	Type        string `json:"type"`
	Sequence    uint64 `json:"sequence"`
	SessionID   string `json:"sessionId"`
	Name        string `json:"name"`
	Output      string `json:"output"`
	Diff        string `json:"diff"`
	IsError     bool   `json:"isError"`
	StopReason  string `json:"stopReason"`
	OutputLines int    `json:"outputLines"`
}

func parseStream(t *testing.T, out string) []streamEvent {
	t.Helper()
	var evs []streamEvent
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for i, line := range lines {
		var ev streamEvent
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("stream-json line is not JSON: %q", line)
		}
		if ev.Type == "result" {
			if i != len(lines)-1 {
				t.Fatalf("the result object is not the last line")
			}
			continue
		}
		evs = append(evs, ev)
	}
	if len(lines) == 0 || !strings.Contains(lines[len(lines)-1], `"type":"result"`) {
		t.Fatalf("stream-json does not end with a result object")
	}
	return evs
}

func TestRunEndToEnd(t *testing.T) {
	e := newEnv(t,
		openaitest.Reply{Text: "Let me look.", ToolCalls: []openaitest.Call{{ID: "c1", Name: "Read", Args: `{"file_path":"hello.txt"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c2", Name: "Edit", Args: `{"file_path":"hello.txt","old_string":"world","new_string":"pincer"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c3", Name: "Bash", Args: `{"command":"git diff --stat && cat hello.txt"}`}}},
		openaitest.Reply{Text: "I changed hello.txt."},
	)
	out, stderr, code := e.run(e.runArgs("--permission-mode", "bypassPermissions", "--output-format", "stream-json", "change world to pincer")...)
	if code != 0 {
		t.Fatalf("exit %d, stderr: %s", code, stderr)
	}
	if got := e.read("hello.txt"); got != "hello pincer\n" {
		t.Errorf("hello.txt = %q", got)
	}
	evs := parseStream(t, out)
	var types []string
	tools := map[string]streamEvent{}
	for i, ev := range evs {
		if ev.Sequence != uint64(i+1) {
			t.Fatalf("event %d has sequence %d: gap or disorder", i, ev.Sequence)
		}
		types = append(types, ev.Type)
		if ev.Type == "tool.completed" {
			tools[ev.Name] = ev
		}
	}
	if types[0] != "session.created" || types[1] != "turn.started" || types[len(types)-1] != "turn.completed" {
		t.Errorf("event order %v", types)
	}
	for _, name := range []string{"Read", "Edit", "Bash"} {
		if ev, ok := tools[name]; !ok || ev.IsError {
			t.Errorf("tool %s: %+v", name, ev)
		}
	}
	if !strings.Contains(tools["Read"].Output, "hello world") || !strings.Contains(tools["Bash"].Output, "hello pincer") {
		t.Errorf("tool outputs: Read %q, Bash %q", tools["Read"].Output, tools["Bash"].Output)
	}
	if !strings.Contains(tools["Edit"].Diff, "-hello world") || !strings.Contains(tools["Edit"].Diff, "+hello pincer") {
		t.Errorf("edit diff %q", tools["Edit"].Diff)
	}
	sessionID := evs[0].SessionID

	// The session is listed, with this directory.
	out, stderr, code = e.run("sessions", "--json")
	var list []struct{ ID, Cwd, Status string }
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 || list[0].ID != sessionID {
		t.Fatalf("sessions --json: exit %d, %q %s", code, out, stderr)
	}
	if list[0].Status != "idle" {
		t.Errorf("session status %q", list[0].Status)
	}

	// --continue resumes it: the model sees the whole earlier conversation.
	e.fake.Push(openaitest.Reply{Text: "All good."})
	out, stderr, code = e.run(e.runArgs("--continue", "is it done?")...)
	if code != 0 || strings.TrimSpace(out) != "All good." {
		t.Fatalf("continue: exit %d out %q err %s", code, out, stderr)
	}
	reqs := e.fake.Requests()
	msgs := reqs[len(reqs)-1]["messages"].([]any)
	var roles []string
	for _, m := range msgs {
		roles = append(roles, m.(map[string]any)["role"].(string))
	}
	want := "system user assistant tool assistant tool assistant tool assistant user"
	if strings.Join(roles, " ") != want {
		t.Errorf("continued request roles\n got %s\nwant %s", strings.Join(roles, " "), want)
	}
	out, _, _ = e.run("sessions", "--json")
	if json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 {
		t.Errorf("--continue made a new session: %s", out)
	}
	out, _, code = e.run("sessions", "show", sessionID)
	if code != 0 || !strings.Contains(out, "change world to pincer") || !strings.Contains(out, "All good.") {
		t.Errorf("sessions show: %s", out)
	}
}

func TestRunJSONAndDenial(t *testing.T) {
	e := newEnv(t,
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "b1", Name: "Bash", Args: `{"command":"touch made-by-bash"}`}}},
		openaitest.Reply{Text: "I could not run it."},
	)
	out, stderr, code := e.run(e.runArgs("--output-format", "json", "make a file")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		SessionID, Result, StopReason string
		IsError                       bool
		NumTurns                      int
		Usage                         struct{ InputTokens, OutputTokens int }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("json output %q: %v", out, err)
	}
	if res.IsError || res.Result != "I could not run it." || res.NumTurns != 2 || res.Usage.InputTokens != 200 || res.SessionID == "" {
		t.Errorf("result %+v", res)
	}
	if _, err := os.Stat(filepath.Join(e.repo, "made-by-bash")); err == nil {
		t.Error("Bash ran in default mode without approval")
	}
	// The model was told why and which flag would allow it.
	reqs := e.fake.Requests()
	msgs := reqs[1]["messages"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)
	if last["role"] != "tool" || !strings.Contains(last["content"].(string), "--permission-mode acceptEdits (or bypassPermissions)") {
		t.Errorf("denial result sent to the model: %v", last)
	}
}

func TestRunProviderErrorExitCode(t *testing.T) {
	e := newEnv(t, openaitest.Reply{Status: 401, Body: `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`})
	out, stderr, code := e.run(e.runArgs("hi")...)
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	if out != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "Incorrect API key") {
		t.Errorf("stdout %q stderr %q: want one line naming the cause", out, stderr)
	}
	// The user's message was kept.
	out, _, _ = e.run("sessions", "--json")
	var list []struct{ ID string }
	_ = json.Unmarshal([]byte(out), &list)
	if len(list) != 1 {
		t.Fatalf("sessions: %s", out)
	}
	show, _, _ := e.run("sessions", "show", list[0].ID)
	if !strings.Contains(show, "hi") || !strings.Contains(show, "failed") {
		t.Errorf("session after a provider error: %s", show)
	}
}

func TestUsageErrors(t *testing.T) {
	e := newEnv(t)
	cases := [][]string{
		{"frobnicate"},
		{"run", "--permission-mode", "yolo", "x"},
		{"run", "--output-format", "xml", "x"},
		{"run", "--max-turns", "0", "x"},
		{"run", "--model", "no-slash", "x"},
		{"run", "--continue", "--session", "abc", "x"},
		{"sessions", "show"},
		{"run", "--session", "", "x"},
		{"run", "--stall-timeout", "0s", "x"},
		{"run", "--base-url", "not a url", "x"},
		{"run", "--no-such-flag", "x"},
	}
	for _, args := range cases {
		_, stderr, code := e.run(args...)
		if code != 2 || !strings.HasPrefix(stderr, "pincer: ") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("pincer %v: exit %d stderr %q, want 2 and one line", args, code, stderr)
		}
	}
	_, stderr, code := e.run("sessions", "show", "nope")
	if code != 1 || !strings.Contains(stderr, "no session") {
		t.Errorf("unknown session: exit %d %q", code, stderr)
	}
}

// TestKillMidToolThenContinue kills pincer (SIGKILL) while a tool runs; the next
// --continue run sends a transcript in which every tool call has exactly one result.
func TestKillMidToolThenContinue(t *testing.T) {
	e := newEnv(t,
		openaitest.Reply{ToolCalls: []openaitest.Call{
			{ID: "r1", Name: "Read", Args: `{"file_path":"hello.txt"}`},
		}},
		openaitest.Reply{ToolCalls: []openaitest.Call{
			{ID: "k1", Name: "Bash", Args: `{"command":"sleep 3; echo late"}`},
			{ID: "k2", Name: "Bash", Args: `{"command":"echo never"}`},
		}},
	)
	cmd := e.command(e.runArgs("--permission-mode", "bypassPermissions", "--output-format", "stream-json", "run the slow thing")...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	killed := false
	for sc.Scan() {
		var ev streamEvent
		_ = json.Unmarshal(sc.Bytes(), &ev)
		if ev.Type == "tool.started" && ev.Name == "Bash" {
			_ = cmd.Process.Signal(syscall.SIGKILL)
			killed = true
			break
		}
	}
	_ = cmd.Wait()
	if !killed {
		t.Fatal("never saw the Bash tool start")
	}

	e.fake.Push(openaitest.Reply{Text: "Recovered."})
	out, stderr, code := e.run(e.runArgs("--continue", "what happened?")...)
	if code != 0 || strings.TrimSpace(out) != "Recovered." {
		t.Fatalf("continue after kill: exit %d out %q err %s", code, out, stderr)
	}
	reqs := e.fake.Requests()
	msgs := reqs[len(reqs)-1]["messages"].([]any)
	calls := map[string]int{}
	results := map[string]int{}
	var order []string
	for _, raw := range msgs {
		m := raw.(map[string]any)
		order = append(order, m["role"].(string))
		if tcs, ok := m["tool_calls"].([]any); ok {
			for _, tc := range tcs {
				calls[tc.(map[string]any)["id"].(string)]++
			}
		}
		if id, ok := m["tool_call_id"].(string); ok {
			results[id]++
			if id == "k1" && !strings.Contains(m["content"].(string), agent.InterruptedResult[:30]) {
				t.Errorf("killed call's result: %q", m["content"])
			}
		}
	}
	for id := range calls {
		if results[id] != 1 {
			t.Errorf("tool call %s has %d results", id, results[id])
		}
	}
	for id := range results {
		if calls[id] == 0 {
			t.Errorf("orphan result %s", id)
		}
	}
	if len(calls) != 3 {
		t.Errorf("calls sent: %v (roles %v)", calls, order)
	}
	userMsgs := 0
	for _, r := range order {
		if r == "user" {
			userMsgs++
		}
	}
	if userMsgs != 2 {
		t.Errorf("user messages sent: %d, want 2 (roles %v)", userMsgs, order)
	}
}

// TestSecondProcessGetsClearLine: while a pincer run --no-daemon holds the store to
// itself, another process gets one line naming the holder's pid.
func TestSecondProcessGetsClearLine(t *testing.T) {
	e := newEnv(t, openaitest.Reply{Text: "slow", Hold: 10 * time.Second})
	first := e.command(e.runArgs("--no-daemon", "wait")...)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = first.Process.Kill(); _ = first.Wait() }()
	deadline := time.Now().Add(10 * time.Second)
	for len(e.fake.Requests()) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	_, stderr, code := e.run("sessions")
	if code != 1 || !strings.Contains(stderr, fmt.Sprint(first.Process.Pid)) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Errorf("second process: exit %d stderr %q, want one line naming pid %d", code, stderr, first.Process.Pid)
	}
}

// TestInterruptCancelsTurn: Ctrl+C (SIGINT) during the stream ends the turn with
// turn.cancelled and exit code 1; the session continues afterwards.
func TestInterruptCancelsTurn(t *testing.T) {
	e := newEnv(t, openaitest.Reply{Text: "partial answer", Hold: 20 * time.Second})
	cmd := e.command(e.runArgs("--output-format", "stream-json", "long task")...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	var types []string
	for sc.Scan() {
		var ev streamEvent
		_ = json.Unmarshal(sc.Bytes(), &ev)
		if ev.Type == "result" {
			continue
		}
		types = append(types, ev.Type)
		if ev.Type == "turn.started" {
			time.Sleep(200 * time.Millisecond) // let the first chunk arrive
			_ = cmd.Process.Signal(os.Interrupt)
		}
	}
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("exit after SIGINT: %v (stderr %s)", err, stderr.String())
	}
	if types[len(types)-1] != "turn.cancelled" || !strings.Contains(stderr.String(), "cancelled") {
		t.Errorf("events %v, stderr %q", types, stderr.String())
	}
	e.fake.Push(openaitest.Reply{Text: "resumed"})
	out, errs, code := e.run(e.runArgs("--continue", "go on")...)
	if code != 0 || strings.TrimSpace(out) != "resumed" {
		t.Fatalf("continue after cancel: %d %q %s", code, out, errs)
	}
	reqs := e.fake.Requests()
	msgs := reqs[len(reqs)-1]["messages"].([]any)
	var sawPartial bool
	for _, m := range msgs {
		if c, _ := m.(map[string]any)["content"].(string); c == "partial " {
			sawPartial = true
		}
	}
	if !sawPartial {
		t.Errorf("the interrupted partial answer is not in the continued transcript: %v", msgs)
	}
}

func TestPromptFromArgsAndStdin(t *testing.T) {
	e := newEnv(t, openaitest.Reply{Text: "seen"})
	cmd := e.command(e.runArgs("explain this")...)
	cmd.Stdin = strings.NewReader("line one\nline two\n")
	if out, err := cmd.CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "seen" {
		t.Fatalf("run: %v %s", err, out)
	}
	msgs := e.fake.Requests()[0]["messages"].([]any)
	user := msgs[len(msgs)-1].(map[string]any)["content"]
	if user != "explain this\n\nline one\nline two" {
		t.Errorf("prompt sent: %q", user)
	}
}

func TestReadCommandsCreateNothingAndSessionsStayInTheirDirectory(t *testing.T) {
	e := newEnv(t, openaitest.Reply{Text: "one"})
	out, stderr, code := e.run("sessions")
	if code != 0 || !strings.Contains(out, "No sessions") {
		t.Fatalf("sessions on a new home: %d %q %q", code, out, stderr)
	}
	if entries, _ := os.ReadDir(e.home); len(entries) != 0 {
		t.Errorf("a read-only command created %v in PINCER_HOME", entries)
	}
	if _, stderr, code = e.run(e.runArgs("first")...); code != 0 {
		t.Fatalf("first run: %s", stderr)
	}
	out, _, _ = e.run("sessions", "--json")
	var list []struct{ ID string }
	_ = json.Unmarshal([]byte(out), &list)
	other := t.TempDir()
	cmd := e.command(e.runArgs("--session", list[0].ID, "again")...)
	cmd.Dir = other
	b, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(b), "run pincer from that directory") {
		t.Errorf("--session from another directory: %v %s", err, b)
	}
	if out, _, code := e.run("--version"); code != 0 || !strings.HasPrefix(out, "pincer ") {
		t.Errorf("--version: %d %q", code, out)
	}
}

// TestBashIsSandboxed: the Bash tool gets no API key from pincer's environment and
// cannot write outside the workspace (Landlock), even in bypassPermissions mode.
func TestBashIsSandboxed(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home directory")
	}
	outside, err := os.MkdirTemp(home, ".pincer-e2e-outside-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(outside)
	target := filepath.Join(outside, "escaped")
	e := newEnv(t,
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "b1", Name: "Bash",
			Args: fmt.Sprintf(`{"command":"echo key=[$PINCER_API_KEY]; touch %s; touch inside.txt"}`, target)}}},
		openaitest.Reply{Text: "done"},
	)
	out, stderr, code := e.run(e.runArgs("--permission-mode", "bypassPermissions", "--output-format", "stream-json", "try")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(out, "test-key") {
		t.Error("the API key reached the Bash command")
	}
	if !strings.Contains(out, "key=[]") {
		t.Errorf("Bash output missing: %s", out)
	}
	if _, err := os.Stat(target); err == nil {
		t.Error("Bash wrote outside the workspace")
	}
	if _, err := os.Stat(filepath.Join(e.repo, "inside.txt")); err != nil {
		t.Error("Bash could not write inside the workspace")
	}
}

// TestRulesHooksAndAudit: --allowed-tools lets a command run headless in default
// mode, a project hook in .claude/settings.json blocks another (Claude Code's
// format, unchanged), and `pincer audit` lists the decisions.
func TestRulesHooksAndAudit(t *testing.T) {
	e := newEnv(t,
		openaitest.Reply{ToolCalls: []openaitest.Call{
			{ID: "b1", Name: "Bash", Args: `{"command":"touch allowed.txt"}`},
			{ID: "b2", Name: "Bash", Args: `{"command":"touch forbidden.txt"}`},
		}},
		openaitest.Reply{Text: "done"},
	)
	if err := os.MkdirAll(filepath.Join(e.repo, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	e.write(".claude/settings.json", `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"if grep -q forbidden; then echo 'not that file' >&2; exit 2; fi"}]}]}}`)
	_, stderr, code := e.run(e.runArgs("--trust-project-hooks", "--allowed-tools", "Bash(touch allowed.txt) Bash(touch forbidden.txt)", "make files")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(e.repo, "allowed.txt")); err != nil {
		t.Error("the allowed command did not run")
	}
	if _, err := os.Stat(filepath.Join(e.repo, "forbidden.txt")); err == nil {
		t.Error("the hook did not block the command")
	}
	msgs := e.fake.Requests()[1]["messages"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)["content"].(string)
	if !strings.Contains(last, "not that file") {
		t.Errorf("the model did not get the hook's reason: %q", last)
	}
	out, _, code := e.run("audit", "--json")
	var entries []struct{ Tool, Decision, By, Rule string }
	if code != 0 || json.Unmarshal([]byte(out), &entries) != nil || len(entries) != 2 {
		t.Fatalf("audit: %d %s", code, out)
	}
	byDecision := map[string]string{}
	for _, en := range entries {
		byDecision[en.Decision] = en.Rule + " " + en.By
	}
	if !strings.Contains(byDecision["allow"], "touch allowed.txt") || !strings.Contains(byDecision["deny"], "hook") {
		t.Errorf("audit entries %+v", entries)
	}
}

// TestSandboxConfigAndAddDir: [sandbox] network = false in the project config cuts
// the network of commands; --add-dir lets the file tools read another directory.
func TestSandboxConfigAndAddDir(t *testing.T) {
	extra := t.TempDir()
	if err := os.WriteFile(filepath.Join(extra, "notes.txt"), []byte("extra notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t)
	port := strings.TrimPrefix(e.fake.URL, "http://127.0.0.1:")
	e.fake.Push(
		openaitest.Reply{ToolCalls: []openaitest.Call{
			{ID: "n1", Name: "Bash", Args: `{"command":"exec 3<>/dev/tcp/127.0.0.1/` + port + ` && echo connected || echo no-network"}`},
			{ID: "r1", Name: "Read", Args: `{"file_path":"` + filepath.Join(extra, "notes.txt") + `"}`},
		}},
		openaitest.Reply{Text: "done"},
	)
	if err := os.MkdirAll(filepath.Join(e.repo, ".pincer"), 0o755); err != nil {
		t.Fatal(err)
	}
	e.write(".pincer/config.toml", "[sandbox]\nnetwork = false\n")
	out, stderr, code := e.run(e.runArgs("--permission-mode", "bypassPermissions", "--add-dir", extra, "--output-format", "stream-json", "check")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	tools := map[string]streamEvent{}
	for _, ev := range parseStream(t, out) {
		if ev.Type == "tool.completed" {
			tools[ev.Name] = ev
		}
	}
	if !strings.Contains(tools["Bash"].Output, "no-network") {
		t.Errorf("network was reachable: %q", tools["Bash"].Output)
	}
	if !strings.Contains(tools["Read"].Output, "extra notes") {
		t.Errorf("--add-dir: Read gave %q", tools["Read"].Output)
	}
	e.write(".pincer/config.toml", "[sandbox\nnetwork = false\n")
	e.fake.Push(openaitest.Reply{Text: "ok"})
	_, stderr, code = e.run(e.runArgs("again")...)
	if code != 2 || !strings.Contains(stderr, "config.toml:1:") { // fail closed (issue 10, class 13)
		t.Errorf("a bad config file: exit %d, stderr %q (want exit 2 naming FILE:LINE)", code, stderr)
	}
}

// TestLongOutputSpilledAndReadable: a Bash output too long to show inline is saved in
// full, and the model can Read the file the result names.
func TestLongOutputSpilledAndReadable(t *testing.T) {
	e := newEnv(t, openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "big1", Name: "Bash",
		Args: `{"command":"seq 1 40000"}`}}}, openaitest.Reply{Text: "done"})
	out, stderr, code := e.run(e.runArgs("--permission-mode", "bypassPermissions", "--output-format", "stream-json", "count")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var bash streamEvent
	for _, ev := range parseStream(t, out) {
		if ev.Type == "tool.completed" {
			bash = ev
		}
	}
	if bash.OutputLines != 40000 { // the whole output's lines, not the cut's (Found 13)
		t.Errorf("tool.completed outputLines = %d, want 40000", bash.OutputLines)
	}
	i := strings.Index(bash.Output, filepath.Join(e.home, "data", "tool-results"))
	if i < 0 {
		t.Fatalf("the result names no spill file: ...%s", bash.Output[max(0, len(bash.Output)-300):])
	}
	path := strings.Fields(bash.Output[i:])[0]
	path = strings.TrimRight(path, ".,;:)")
	full, err := os.ReadFile(path)
	if err != nil || !strings.HasSuffix(strings.TrimSpace(string(full)), "\n40000") {
		t.Fatalf("spill file %s: %v", path, err)
	}
	e.fake.Push(openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "r1", Name: "Read", Args: `{"file_path":"` + path + `","offset":39999}`}}})
	out, stderr, code = e.run(e.runArgs("--continue", "--output-format", "stream-json", "read the end")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, ev := range parseStream(t, out) {
		if ev.Type == "tool.completed" && (ev.IsError || !strings.Contains(ev.Output, "40000")) {
			t.Errorf("Read of the spill file: %q", ev.Output)
		}
	}
}

// TestContextAndCompactCommands: "/context" answers without a model call; "/compact"
// summarises a continued session with one model call and keeps every message.
func TestContextAndCompactCommands(t *testing.T) {
	e := newEnv(t, openaitest.Reply{Text: "first answer"}, openaitest.Reply{Text: "second answer"},
		openaitest.Reply{Text: "Goal: test. Summary."})
	e.write("AGENTS.md", "Use tabs.\n")
	out, stderr, code := e.run(e.runArgs("/context")...)
	if code != 0 || !strings.Contains(out, "AGENTS.md") || len(e.fake.Requests()) != 0 {
		t.Fatalf("/context: %d %q %s (requests %d)", code, out, stderr, len(e.fake.Requests()))
	}
	if _, stderr, code := e.run(e.runArgs("one")...); code != 0 {
		t.Fatalf("run one: %s", stderr)
	}
	if _, stderr, code := e.run(e.runArgs("--continue", "two")...); code != 0 {
		t.Fatalf("run two: %s", stderr)
	}
	out, stderr, code = e.run(e.runArgs("--continue", "--output-format", "json", "/compact the tests")...)
	if code != 0 || !strings.Contains(out, `"stopReason":"compacted"`) {
		t.Fatalf("/compact: %d %s %s", code, out, stderr)
	}
	reqs := e.fake.Requests()
	msgs := reqs[len(reqs)-1]["messages"].([]any)
	if !strings.Contains(msgs[len(msgs)-1].(map[string]any)["content"].(string), "the tests") {
		t.Errorf("the focus did not reach the summary call: %d requests, out %s", len(reqs), out)
	}
}

// TestShortSessionIDAndStoredModelHint: the short ID the workbench shows works with
// --session and sessions show; continuing a --base-url session without it says what
// to pass.
func TestShortSessionIDAndStoredModelHint(t *testing.T) {
	e := newEnv(t, openaitest.Reply{Text: "one"}, openaitest.Reply{Text: "two"})
	if _, stderr, code := e.run(e.runArgs("first")...); code != 0 {
		t.Fatal(stderr)
	}
	out, _, _ := e.run("sessions", "--json")
	var list []struct{ ID string }
	_ = json.Unmarshal([]byte(out), &list)
	short := list[0].ID[strings.LastIndex(list[0].ID, "-")+1:]
	if out, stderr, code := e.run(e.runArgs("--session", short, "second")...); code != 0 || strings.TrimSpace(out) != "two" {
		t.Errorf("--session %s: %d %q %s", short, code, out, stderr)
	}
	if out, _, code := e.run("sessions", "show", short); code != 0 || !strings.Contains(out, "second") {
		t.Errorf("sessions show %s: %d", short, code)
	}
	cmd := e.command("run", "--continue", "third")
	cmd.Env = append(cmd.Env, "PINCER_MODEL=")
	b, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(b), "--base-url") {
		t.Errorf("continuing without --base-url: %v %s", err, b)
	}
}
