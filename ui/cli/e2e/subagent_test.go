package e2e

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"pincer/core/agent"
	"pincer/core/event"
	"pincer/core/message"
	"pincer/core/provider/openai/openaitest"
	"pincer/persist"
)

// agentCall is an Agent tool call of the fake model.
func agentCall(id, typ, desc, prompt, extra string) openaitest.Call {
	return openaitest.Call{ID: id, Name: "Agent", Args: `{"description":"` + desc + `","prompt":"` + prompt +
		`","subagent_type":"` + typ + `"` + extra + `}`}
}

// parentRequests are the fake's requests whose first user message holds mark.
func requestsWith(e *env, mark string) []map[string]any {
	var out []map[string]any
	for _, r := range e.fake.Requests() {
		for _, raw := range r["messages"].([]any) {
			m := raw.(map[string]any)
			if m["role"] == "user" {
				if s, _ := m["content"].(string); strings.Contains(s, mark) {
					out = append(out, r)
				}
				break
			}
		}
	}
	return out
}

// toolResults maps each tool result of a request to its content, failing on
// a call without exactly one result.
func toolResultsOf(t *testing.T, req map[string]any) map[string]string {
	t.Helper()
	calls, results := map[string]bool{}, map[string]string{}
	for _, raw := range req["messages"].([]any) {
		m := raw.(map[string]any)
		if tcs, ok := m["tool_calls"].([]any); ok {
			for _, tc := range tcs {
				calls[tc.(map[string]any)["id"].(string)] = true
			}
		}
		if id, ok := m["tool_call_id"].(string); ok {
			if _, dup := results[id]; dup {
				t.Fatalf("two results for %s", id)
			}
			results[id], _ = m["content"].(string)
		}
	}
	for id := range calls {
		if _, ok := results[id]; !ok {
			t.Fatalf("call %s has no result", id)
		}
	}
	return results
}

// sessionsJSON is `pincer sessions list --json`.
func sessionsJSON(t *testing.T, e *env) []persist.Session {
	t.Helper()
	out, stderr, code := e.run("sessions", "list", "--json")
	if code != 0 {
		t.Fatalf("sessions list: %d %s", code, stderr)
	}
	var ss []persist.Session
	if err := json.Unmarshal([]byte(out), &ss); err != nil {
		t.Fatalf("sessions list --json: %v\n%s", err, out)
	}
	return ss
}

// sessionDump is `pincer sessions show ID --json`.
type sessionDump struct {
	Session  persist.Session   `json:"session"`
	Messages []message.Message `json:"messages"`
	Events   []event.Event     `json:"events"`
}

func showJSON(t *testing.T, e *env, id string) sessionDump {
	t.Helper()
	out, stderr, code := e.run("sessions", "show", id, "--json")
	if code != 0 {
		t.Fatalf("sessions show %s: %d %s", id, code, stderr)
	}
	var d sessionDump
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("sessions show --json: %v", err)
	}
	return d
}

// A parent turn starts two Explore subagents in parallel and one worktree
// subagent that writes a file: the parent's next request carries only their
// final texts (no step of theirs), the worktree's branch has the edit and
// the main checkout does not, and the three sessions are the parent's
// children in the store.
func TestSubagentsExploreAndWorktree(t *testing.T) {
	e := newEnv(t,
		openaitest.Reply{When: "coordinate", ToolCalls: []openaitest.Call{
			agentCall("a1", "Explore", "find alpha", "ALPHA-TASK: where is hello?", ""),
			agentCall("a2", "Explore", "find beta", "BETA-TASK: what does hello.txt say?", ""),
			agentCall("a3", "general-purpose", "write file", "EDIT-TASK: write edited.txt", `,"isolation":"worktree"`),
		}},
		openaitest.Reply{When: "ALPHA-TASK", ToolCalls: []openaitest.Call{{ID: "x1", Name: "Read", Args: `{"file_path":"hello.txt"}`}}},
		openaitest.Reply{When: "ALPHA-TASK", Text: "alpha: hello is in hello.txt"},
		openaitest.Reply{When: "BETA-TASK", ToolCalls: []openaitest.Call{{ID: "y1", Name: "Grep", Args: `{"pattern":"world"}`}}},
		openaitest.Reply{When: "BETA-TASK", Text: "beta: it greets the world"},
		openaitest.Reply{When: "EDIT-TASK", ToolCalls: []openaitest.Call{{ID: "z1", Name: "Write", Args: `{"file_path":"edited.txt","content":"EDITED BY SUBAGENT\n"}`}}},
		openaitest.Reply{When: "EDIT-TASK", Text: "wrote edited.txt"},
		openaitest.Reply{When: "coordinate", Text: "all three reported"},
	)
	out, stderr, code := e.run(e.runArgs("--permission-mode", "acceptEdits", "coordinate the work")...)
	if code != 0 || strings.TrimSpace(out) != "all three reported" {
		t.Fatalf("exit %d out %q\n%s", code, out, stderr)
	}
	parents := requestsWith(e, "coordinate")
	if len(parents) != 2 {
		t.Fatalf("%d parent requests, want 2", len(parents))
	}
	res := toolResultsOf(t, parents[1])
	for id, want := range map[string]string{"a1": "alpha: hello is in hello.txt", "a2": "beta: it greets the world", "a3": "wrote edited.txt"} {
		if !strings.HasPrefix(res[id], want+"\n") || !strings.Contains(res[id], "agentId: ") || !strings.Contains(res[id], "<usage>model_calls: 2") {
			t.Errorf("result of %s: %q", id, res[id])
		}
	}
	if !strings.Contains(res["a3"], "branch: pincer/agent-general-purpose") || !strings.Contains(res["a3"], "edited.txt") {
		t.Errorf("the worktree result names no branch or change: %q", res["a3"])
	}
	body, _ := json.Marshal(parents[1]["messages"])
	for _, step := range []string{"hello world", "EDITED BY SUBAGENT"} {
		if strings.Contains(string(body), step) {
			t.Errorf("a subagent's step (%q) reached the parent's request", step)
		}
	}
	if _, err := os.Stat(filepath.Join(e.repo, "edited.txt")); !os.IsNotExist(err) {
		t.Fatalf("the main checkout has the worktree's edit: %v", err)
	}
	show := exec.Command("git", "show", "pincer/agent-general-purpose:edited.txt")
	show.Dir = e.repo
	if got, err := show.Output(); err != nil || string(got) != "EDITED BY SUBAGENT\n" {
		t.Fatalf("the branch lacks the edit: %q %v", got, err)
	}
	var parent persist.Session
	kids := map[string]persist.Session{}
	for _, s := range sessionsJSON(t, e) {
		if s.ParentID == "" {
			parent = s
		}
	}
	for _, s := range sessionsJSON(t, e) {
		if s.ParentID == parent.ID && parent.ID != "" {
			kids[s.ParentToolCallID] = s
		}
	}
	if len(kids) != 3 || kids["a1"].AgentType != "Explore" || kids["a3"].Branch != "pincer/agent-general-purpose" || kids["a3"].Worktree == "" {
		t.Fatalf("children of %s: %+v", parent.ID, kids)
	}
	edit := requestsWith(e, "EDIT-TASK")
	sys, _ := edit[0]["messages"].([]any)[0].(map[string]any)["content"].(string)
	if !strings.Contains(sys, kids["a3"].Worktree) {
		t.Errorf("the worktree child's system prompt does not name its worktree %s:\n%s", kids["a3"].Worktree, sys)
	}
	d := showJSON(t, e, kids["a1"].ID)
	if !strings.Contains(string(mustJSON(d.Messages)), "hello world") {
		t.Error("the Explore child's session lost its Read step")
	}
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }

// A background subagent: the call returns at once; `pincer run` waits for
// it when the parent's turn ends and gives the parent one more model call,
// which carries the result in a system reminder.
func TestBackgroundSubagentResultReachesParent(t *testing.T) {
	e := newEnv(t,
		openaitest.Reply{When: "launch", ToolCalls: []openaitest.Call{
			agentCall("b1", "general-purpose", "count", "BG-TASK: count things", `,"run_in_background":true`)}},
		openaitest.Reply{When: "BG-TASK", Text: "background says 42", Hold: 1500 * time.Millisecond},
		openaitest.Reply{When: "launch", Text: "launched it"},
		openaitest.Reply{When: "launch", Text: "it said 42"},
	)
	out, stderr, code := e.run(e.runArgs("--output-format", "stream-json", "launch the counter")...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	parents := requestsWith(e, "launch")
	if len(parents) < 2 {
		t.Fatalf("%d parent requests", len(parents))
	}
	if r := toolResultsOf(t, parents[1])["b1"]; !strings.Contains(r, "agentId: ") || strings.Contains(r, "background says") {
		t.Fatalf("the background call's result %q: want its ID at once", r)
	}
	last, _ := json.Marshal(parents[len(parents)-1]["messages"])
	if !strings.Contains(string(last), "system-reminder") || !strings.Contains(string(last), "background says 42") {
		t.Fatalf("the parent's last request lacks the background result: %s", last)
	}
	var sawDone bool
	for _, ev := range parseStream(t, out) {
		if ev.Type == string(event.SubagentCompleted) {
			sawDone = true
		}
	}
	if !sawDone {
		t.Fatal("stream-json printed no subagent.completed")
	}
}

// kill -9 of the process while a subagent runs a command, then --continue:
// every tool call has exactly one result in both sessions (the parent's
// request; the child's log), and the child's turn is closed.
func TestKillDuringSubagentThenContinue(t *testing.T) {
	e := newEnv(t,
		openaitest.Reply{When: "slow agent", ToolCalls: []openaitest.Call{agentCall("s1", "general-purpose", "sleep", "SLOW-TASK: wait", "")}},
		openaitest.Reply{When: "SLOW-TASK", ToolCalls: []openaitest.Call{{ID: "k1", Name: "Bash", Args: `{"command":"sleep 30"}`}}},
	)
	cmd := e.command(e.runArgs("--permission-mode", "bypassPermissions", "--output-format", "stream-json", "run the slow agent")...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var child string
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		var ev struct {
			Type           string `json:"type"`
			ChildSessionID string `json:"childSessionId"`
		}
		_ = json.Unmarshal(sc.Bytes(), &ev)
		if ev.Type == string(event.SubagentStarted) {
			child = ev.ChildSessionID
			break
		}
	}
	if child == "" {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatal("never saw subagent.started")
	}
	// Kill once the child's Bash call runs.
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if strings.Contains(string(mustJSON(showJSON(t, e, child).Events)), `"type":"tool.started"`) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()

	e.fake.Push(openaitest.Reply{When: "slow agent", Text: "Recovered."})
	out, stderr, code := e.run(e.runArgs("--continue", "what happened?")...)
	if code != 0 || strings.TrimSpace(out) != "Recovered." {
		t.Fatalf("continue: exit %d out %q\n%s", code, out, stderr)
	}
	parents := requestsWith(e, "slow agent")
	if r := toolResultsOf(t, parents[len(parents)-1])["s1"]; !strings.Contains(r, agent.InterruptedResult[:30]) {
		t.Errorf("the parent's Agent call's result: %q", r)
	}
	d := showJSON(t, e, child)
	started, completed := map[string]int{}, map[string]int{}
	ended := false
	for _, ev := range d.Events {
		switch ev.Type {
		case event.ToolStarted:
			p, _ := ev.Payload()
			started[p.(event.ToolStartedData).ToolCallID]++
		case event.ToolCompleted:
			p, _ := ev.Payload()
			completed[p.(event.ToolCompletedData).ToolCallID]++
		case event.TurnFailed, event.TurnCompleted, event.TurnCancelled:
			ended = true
		}
	}
	if started["k1"] != 1 || completed["k1"] != 1 || !ended {
		t.Fatalf("child's log: started %v completed %v ended %v", started, completed, ended)
	}
	if d.Session.Status == "running" {
		t.Errorf("the child session is still %q", d.Session.Status)
	}
}
