package web

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
)

// editScript is a turn that reads hello.txt, asks to edit it, then answers.
func editScript() []openaitest.Reply {
	return []openaitest.Reply{
		{ToolCalls: []openaitest.Call{{ID: "c1", Name: "Read", Args: `{"file_path":"hello.txt"}`}}},
		{ToolCalls: []openaitest.Call{{ID: "c2", Name: "Edit", Args: `{"file_path":"hello.txt","old_string":"world","new_string":"pincer"}`}}},
		{Text: "edited"},
	}
}

// pendingEdit submits the edit turn and waits, over SSE, for its
// permission.requested; it returns the stream and the request's ID.
func (e *testEnv) pendingEdit(ctx context.Context, id string) (*sseStream, string) {
	e.t.Helper()
	st := e.stream(ctx, id, "", nil)
	e.call("POST", "/api/sessions/"+id+"/turns", map[string]string{"input": "change world to pincer"}, http.StatusAccepted, nil)
	evs := st.until(e.t, "permission.requested")
	var req struct {
		RequestID string `json:"requestId"`
	}
	if err := json.Unmarshal([]byte(evs[len(evs)-1].Data), &req); err != nil || req.RequestID == "" {
		e.t.Fatalf("permission.requested %s: %v", evs[len(evs)-1].Data, err)
	}
	return st, req.RequestID
}

// TestApprovalAllowRunsTheCall: the pending Edit is listed (GET
// /api/approvals, the session's pending) with its diff; allowing it over
// HTTP lets the call run (the file changes); a second answer is not_found;
// the session's diffs list the call.
func TestApprovalAllowRunsTheCall(t *testing.T) {
	e := newTestEnv(t, editScript()...)
	id := e.newSession()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, rid := e.pendingEdit(ctx, id)

	var list struct{ Approvals []Approval }
	deadline := time.Now().Add(10 * time.Second)
	for len(list.Approvals) == 0 && time.Now().Before(deadline) { // listed once its Approve waits
		e.call("GET", "/api/approvals", nil, http.StatusOK, &list)
		time.Sleep(10 * time.Millisecond)
	}
	if len(list.Approvals) != 1 {
		t.Fatalf("approvals %+v", list.Approvals)
	}
	a := list.Approvals[0]
	if a.RequestID != rid || a.SessionID != id || a.Name != "Edit" || a.ToolCallID != "c2" ||
		!strings.Contains(a.Diff, "-hello world") || !strings.Contains(a.Diff, "+hello pincer") || a.Label != "" {
		t.Fatalf("approval %+v", a)
	}
	var detail SessionDetail
	e.call("GET", "/api/sessions/"+id, nil, http.StatusOK, &detail)
	if len(detail.Pending) != 1 || detail.Pending[0].RequestID != rid || !detail.Running {
		t.Fatalf("session detail %+v", detail)
	}
	if got := e.read("hello.txt"); got != "hello world\n" {
		t.Fatalf("the file changed before the answer: %q", got)
	}
	var res struct{ Resolved bool }
	e.call("POST", "/api/approvals/"+rid, map[string]string{"decision": "allow"}, http.StatusOK, &res)
	if !res.Resolved {
		t.Fatal("not resolved")
	}
	evs := st.until(t, "turn.completed")
	var resolved map[string]any
	for _, ev := range evs {
		if ev.Type == "permission.resolved" {
			_ = json.Unmarshal([]byte(ev.Data), &resolved)
		}
	}
	if resolved["decision"] != "allow" || resolved["scope"] != "once" || resolved["by"] != "user" {
		t.Fatalf("permission.resolved %v", resolved)
	}
	if got := e.read("hello.txt"); got != "hello pincer\n" {
		t.Fatalf("hello.txt = %q after allow", got)
	}
	b := e.call("POST", "/api/approvals/"+rid, map[string]string{"decision": "allow"}, http.StatusNotFound, nil)
	if errorCode(b) != CodeNotFound {
		t.Fatalf("second answer: %s", b)
	}
	var diffs struct{ Calls []DiffCall }
	e.call("GET", "/api/sessions/"+id+"/diffs", nil, http.StatusOK, &diffs)
	if len(diffs.Calls) != 1 || diffs.Calls[0].ToolCallID != "c2" || !strings.Contains(diffs.Calls[0].Diff, "+hello pincer") {
		t.Fatalf("diffs %+v", diffs.Calls)
	}
	var tr struct{ Messages []map[string]any }
	e.call("GET", "/api/sessions/"+id+"/transcript", nil, http.StatusOK, &tr)
	var roles []string
	for _, m := range tr.Messages {
		roles = append(roles, m["role"].(string))
	}
	if strings.Join(roles, " ") != "system user assistant tool assistant tool assistant" {
		t.Fatalf("transcript roles %v", roles)
	}
	e.call("GET", "/api/approvals", nil, http.StatusOK, &list)
	if len(list.Approvals) != 0 {
		t.Fatalf("still pending: %+v", list.Approvals)
	}
}

// TestApprovalDenyKeepsTheFile: a denial over HTTP (with its reason) stops
// the call: the file stays, the model reads the reason.
func TestApprovalDenyKeepsTheFile(t *testing.T) {
	e := newTestEnv(t, editScript()...)
	id := e.newSession()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, rid := e.pendingEdit(ctx, id)
	for _, bad := range []map[string]string{{"decision": "maybe"}, {"decision": "allow", "scope": "forever"}, {}} {
		if b := e.call("POST", "/api/approvals/"+rid, bad, http.StatusBadRequest, nil); errorCode(b) != CodeBadRequest {
			t.Fatalf("answer %v: %s", bad, b)
		}
	}
	e.call("POST", "/api/approvals/"+rid, map[string]string{"decision": "deny", "scope": "always", "reason": "not that file"}, http.StatusOK, nil)
	evs := st.until(t, "turn.completed")
	var completed map[string]any
	for _, ev := range evs {
		if ev.Type == "tool.completed" && strings.Contains(ev.Data, `"c2"`) {
			_ = json.Unmarshal([]byte(ev.Data), &completed)
		}
	}
	if completed["isError"] != true || !strings.Contains(completed["output"].(string), "not that file") {
		t.Fatalf("denied call's tool.completed %v", completed)
	}
	if got := e.read("hello.txt"); got != "hello world\n" {
		t.Fatalf("hello.txt = %q after deny", got)
	}
	if _, err := os.Stat(filepath.Join(e.repo, ".pincer", "settings.local.toml")); err == nil {
		t.Fatal("a denial remembered a rule")
	}
}

func (e *testEnv) read(name string) string {
	e.t.Helper()
	b, err := os.ReadFile(filepath.Join(e.repo, name))
	if err != nil {
		e.t.Fatal(err)
	}
	return string(b)
}
