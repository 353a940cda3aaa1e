package e2e

// The fault-injection test: a scripted session is killed with SIGKILL at each of
// faultPoints; then a resumed run must send a transcript in which every tool call
// has exactly one result and no user message is missing, the session list must be
// intact, and (through the daemon) the killed turn's log must be closed.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
)

// faultPoint is one place to kill a pincer run.
type faultPoint struct {
	name string
	// setup prepares the env (scripts the fake, writes hooks) and returns the
	// run's prompt and the user inputs the transcript must hold afterwards.
	setup func(e *env, run runFunc) (prompt string, users []string)
	// at waits until the run is at the point.
	at func(t *testing.T, e *env, p *proc)
}

// runFunc runs pincer to its end: stdout, stderr, exit code.
type runFunc func(args ...string) (string, string, int)

// hold is a fake reply that stalls the stream until the process dies.
const hold = time.Minute

// requestsReach waits until the fake provider has received n requests.
func requestsReach(t *testing.T, e *env, n int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for len(e.fake.Requests()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("the fake provider got %d requests, want %d", len(e.fake.Requests()), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func bash(id, command string) openaitest.Reply {
	return openaitest.Reply{ToolCalls: []openaitest.Call{{ID: id, Name: "Bash", Args: fmt.Sprintf(`{"command":%q}`, command)}}}
}

// faultPoints are where the test kills pincer. Each point's window is made wide
// (a held stream, a sleeping hook or tool) so the kill lands exactly there.
var faultPoints = []faultPoint{
	{name: "stream-text", // text deltas streamed and stored, the message not yet
		setup: func(e *env, run runFunc) (string, []string) {
			e.fake.Push(openaitest.Reply{Text: "a partial answer that never ends", Hold: hold})
			return "explain", []string{"explain"}
		},
		at: func(t *testing.T, e *env, p *proc) { p.waitFor(t, "a delta", isType("message.delta")) }},
	{name: "stream-tool-call", // a tool call's header streamed, its arguments not yet
		setup: func(e *env, run runFunc) (string, []string) {
			r := bash("s1", "echo never")
			r.Hold = hold
			e.fake.Push(r)
			return "call a tool", []string{"call a tool"}
		},
		at: func(t *testing.T, e *env, p *proc) {
			requestsReach(t, e, 1)
			time.Sleep(200 * time.Millisecond) // the held chunk arrives
		}},
	{name: "after-assistant-before-tool", // the assistant message stored, a PreToolUse hook sleeping
		setup: func(e *env, run runFunc) (string, []string) {
			if err := os.MkdirAll(filepath.Join(e.repo, ".claude"), 0o755); err != nil {
				e.t.Fatal(err)
			}
			e.write(".claude/settings.json", `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"sleep 20"}]}]}}`)
			if out, stderr, code := e.run("trust", "--yes"); code != 0 { // the user trusts this project's hooks
				e.t.Fatalf("pincer trust: %s%s", out, stderr)
			}
			e.fake.Push(bash("h1", "echo hooked"))
			return "run it", []string{"run it"}
		},
		at: func(t *testing.T, e *env, p *proc) {
			p.waitFor(t, "the assistant message", isType("message.completed"))
			time.Sleep(300 * time.Millisecond) // into the hook
		}},
	{name: "during-tool", // a tool running
		setup: func(e *env, run runFunc) (string, []string) {
			e.fake.Push(bash("t1", "sleep 20"))
			return "run the slow thing", []string{"run the slow thing"}
		},
		at: func(t *testing.T, e *env, p *proc) { p.waitFor(t, "the tool", isType("tool.started")) }},
	{name: "after-result-before-answer", // the tool result stored, the next model call sent
		setup: func(e *env, run runFunc) (string, []string) {
			e.fake.Push(bash("r1", "echo done"), openaitest.Reply{Hold: hold})
			return "run and wait", []string{"run and wait"}
		},
		at: func(t *testing.T, e *env, p *proc) {
			p.waitFor(t, "the tool result", isType("tool.completed"))
			requestsReach(t, e, 2)
		}},
	{name: "during-compaction", // a "/compact" run's summary call in flight
		setup: func(e *env, run runFunc) (string, []string) {
			e.fake.Push(bash("c1", "echo before"), openaitest.Reply{Text: "first done"})
			if _, stderr, code := run(e.runArgs("--permission-mode", "bypassPermissions", "first")...); code != 0 {
				e.t.Fatalf("first run: %s", stderr)
			}
			e.fake.Push(openaitest.Reply{Text: "Summary of the session", Hold: hold})
			return "/compact", []string{"first"}
		},
		at: func(t *testing.T, e *env, p *proc) { requestsReach(t, e, 3) }},
}

func TestFaultInjection(t *testing.T) {
	for _, mode := range []string{"daemon", "no-daemon"} {
		for _, fp := range faultPoints {
			t.Run(mode+"/"+fp.name, func(t *testing.T) {
				t.Parallel()
				faultRun(t, fp, mode == "no-daemon")
			})
		}
	}
	t.Logf("N = %d kill points, each with and without the store daemon", len(faultPoints))
}

// faultRun kills a run at fp, resumes it, and checks what the model is sent.
func faultRun(t *testing.T, fp faultPoint, direct bool) {
	e := newEnv(t)
	var extra []string
	if direct {
		extra = []string{"PINCER_NO_DAEMON=1"}
	} else {
		stopDaemonAtEnd(t, e.home)
	}
	run := func(args ...string) (string, string, int) {
		p := e.command(args...)
		p.Env = append(p.Env, extra...)
		var out, errb strings.Builder
		p.Stdout, p.Stderr = &out, &errb
		code := 0
		if err := p.Run(); err != nil {
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatal(err)
			}
			code = ee.ExitCode()
		}
		return out.String(), errb.String(), code
	}
	prompt, users := fp.setup(e, run)
	before := len(e.fake.Requests())
	p := e.start(extra, e.runArgs("--permission-mode", "bypassPermissions", "--output-format", "stream-json", "--continue="+fmt.Sprint(before > 0), prompt)...)
	fp.at(t, e, p)
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	_, _ = p.wait(t)

	e.fake.Push(openaitest.Reply{Text: "Recovered."})
	resume := e.start(extra, e.runArgs("--continue", "--output-format", "stream-json", "what happened?")...)
	if code, _ := resume.wait(t); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, resume.stderr.String())
	}
	reqs := e.fake.Requests()
	msgs := reqs[len(reqs)-1]["messages"].([]any)
	calls, results := map[string]int{}, map[string]int{}
	var sentUsers []string
	for _, raw := range msgs {
		m := raw.(map[string]any)
		if tcs, ok := m["tool_calls"].([]any); ok {
			for _, tc := range tcs {
				calls[tc.(map[string]any)["id"].(string)]++
			}
		}
		if id, ok := m["tool_call_id"].(string); ok {
			results[id]++
		}
		if m["role"] == "user" {
			sentUsers = append(sentUsers, fmt.Sprint(m["content"]))
		}
	}
	for id, n := range calls {
		if n != 1 || results[id] != 1 {
			t.Errorf("tool call %s: sent %d times with %d results", id, n, results[id])
		}
	}
	for id := range results {
		if calls[id] == 0 {
			t.Errorf("orphan tool result %s", id)
		}
	}
	for _, u := range append(users, "what happened?") {
		if !slices.Contains(sentUsers, u) {
			t.Errorf("user message %q is missing from %q", u, sentUsers)
		}
	}
	// The session list is intact: one session, readable, idle after the resume.
	out, _, code := run("sessions", "--json")
	var list []struct{ ID, Status string }
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 || list[0].Status != "idle" {
		t.Fatalf("sessions after the kill: %d %s", code, out)
	}
	if direct {
		return
	}
	// Through the daemon the killed turn's log was closed: every turn ended,
	// every started tool completed, every permission request answered.
	out, _, _ = run("sessions", "show", list[0].ID, "--json")
	var dump struct {
		Events []struct {
			Type, TurnID, ToolCallID, RequestID string
		}
	}
	if err := json.Unmarshal([]byte(out), &dump); err != nil {
		t.Fatal(err)
	}
	open := map[string]int{}
	for _, ev := range dump.Events {
		switch ev.Type {
		case "turn.started":
			open["turn "+ev.TurnID]++
		case "turn.completed", "turn.failed", "turn.cancelled":
			open["turn "+ev.TurnID]--
		case "tool.started":
			open["tool "+ev.ToolCallID]++
		case "tool.completed":
			if open["tool "+ev.ToolCallID] > 0 {
				open["tool "+ev.ToolCallID]--
			}
		case "permission.requested":
			open["request "+ev.RequestID]++
		case "permission.resolved":
			open["request "+ev.RequestID]--
		}
	}
	for k, n := range open {
		if n != 0 {
			t.Errorf("%s left open in the log (%d)", k, n)
		}
	}
	if !strings.Contains(out, "ended before the turn finished") {
		t.Errorf("no turn.failed from the daemon for the killed turn")
	}
}
