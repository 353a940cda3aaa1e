package web

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
)

// TestSubagentRequestListedUnderItsParent: a subagent's Edit (in its child
// session) is pending with the label "[general-purpose]", in GET
// /api/approvals and in its parent session's pending; allowing it over HTTP
// lets the child's call run. The sessions list nests the child under the
// parent.
func TestSubagentRequestListedUnderItsParent(t *testing.T) {
	e := newTestEnv(t,
		openaitest.Reply{When: "delegate it", ToolCalls: []openaitest.Call{{ID: "a1", Name: "Agent",
			Args: `{"description":"edit hello","prompt":"child job: change world","subagent_type":"general-purpose"}`}}},
		openaitest.Reply{When: "child job", ToolCalls: []openaitest.Call{{ID: "c1", Name: "Read", Args: `{"file_path":"hello.txt"}`}}},
		openaitest.Reply{When: "child job", ToolCalls: []openaitest.Call{{ID: "c2", Name: "Edit", Args: `{"file_path":"hello.txt","old_string":"world","new_string":"child"}`}}},
		openaitest.Reply{When: "child job", Text: "child done"},
		openaitest.Reply{When: "delegate it", Text: "parent done"})
	id := e.newSession()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	st := e.stream(ctx, id, "", nil)
	e.call("POST", "/api/sessions/"+id+"/turns", map[string]string{"input": "delegate it"}, http.StatusAccepted, nil)
	var detail SessionDetail
	deadline := time.Now().Add(30 * time.Second)
	for len(detail.Pending) == 0 && time.Now().Before(deadline) {
		e.call("GET", "/api/sessions/"+id, nil, http.StatusOK, &detail)
		time.Sleep(20 * time.Millisecond)
	}
	if len(detail.Pending) != 1 {
		t.Fatalf("the parent's pending: %+v", detail.Pending)
	}
	a := detail.Pending[0]
	if a.SessionID == id || a.Label != "[general-purpose]" || a.Name != "Edit" || !strings.Contains(a.Diff, "+hello child") {
		t.Fatalf("the child's request %+v", a)
	}
	var list struct{ Sessions []Session }
	e.call("GET", "/api/sessions", nil, http.StatusOK, &list)
	if len(list.Sessions) != 1 || len(list.Sessions[0].Children) != 1 || list.Sessions[0].Children[0].ID != a.SessionID ||
		list.Sessions[0].Children[0].AgentType != "general-purpose" {
		t.Fatalf("sessions %+v", list.Sessions)
	}
	e.call("POST", "/api/approvals/"+a.RequestID, map[string]string{"decision": "allow"}, http.StatusOK, nil)
	st.until(t, "turn.completed")
	if got := e.read("hello.txt"); got != "hello child\n" {
		t.Fatalf("hello.txt = %q", got)
	}
}
