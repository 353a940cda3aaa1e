package web

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
)

// TestSessionsListAndShow: created sessions are listed newest first with
// their status, mode, usage and last sequence; one session shows the same
// with its pending requests; a second workspace gets its own Run.
func TestSessionsListAndShow(t *testing.T) {
	e := newTestEnv(t, openaitest.Reply{Text: "counted"})
	first := e.newSession()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st := e.stream(ctx, first, "", nil)
	e.call("POST", "/api/sessions/"+first+"/turns", map[string]string{"input": "count"}, http.StatusAccepted, nil)
	done := st.until(t, "turn.completed")
	second := e.newSession()
	other := gitRepo(t)
	var third Session
	e.call("POST", "/api/sessions", map[string]string{"cwd": other}, http.StatusCreated, &third)

	var list struct{ Sessions []Session }
	e.call("GET", "/api/sessions", nil, http.StatusOK, &list)
	if len(list.Sessions) != 3 || list.Sessions[0].ID != third.ID || list.Sessions[1].ID != second || list.Sessions[2].ID != first {
		t.Fatalf("list %+v", list.Sessions)
	}
	s := list.Sessions[2]
	if s.Status != "idle" || s.Mode != "default" || s.Running || s.Title == "" || s.Model != "fake/test-model" ||
		s.Usage.InputTokens == 0 || s.Usage.OutputTokens == 0 || s.LastSequence != uint64(len(done)) || s.CreatedAt.IsZero() {
		t.Fatalf("first session %+v (its stream had %d events)", s, len(done))
	}
	if third.Cwd == list.Sessions[1].Cwd {
		t.Fatalf("both workspaces have cwd %s", third.Cwd)
	}
	if n := len(e.srv.allWorkspaces()); n != 2 {
		t.Fatalf("%d workspaces, want 2", n)
	}
	var detail SessionDetail
	b := e.call("GET", "/api/sessions/"+first, nil, http.StatusOK, &detail)
	if detail.ID != first || detail.Pending == nil || !strings.Contains(string(b), `"pending":[]`) {
		t.Fatalf("detail %s", b)
	}
}

// TestModeAndModel: a mode the workbench accepts is set and recorded; a
// mode it refuses is bad_request; a model switch as /model switch NAME.
func TestModeAndModel(t *testing.T) {
	e := newTestEnv(t)
	id := e.newSession()
	var s Session
	e.call("POST", "/api/sessions/"+id+"/mode", map[string]string{"mode": "acceptEdits"}, http.StatusOK, &s)
	if s.Mode != "acceptEdits" {
		t.Fatalf("mode %+v", s)
	}
	evs, err := e.store.Log().Read(context.Background(), id, 0, 0)
	if err != nil || evs[len(evs)-1].Type != "mode.changed" {
		t.Fatalf("no mode.changed: %v %v", evs, err)
	}
	for _, bad := range []string{"yolo", "", "Plan"} {
		if b := e.call("POST", "/api/sessions/"+id+"/mode", map[string]string{"mode": bad}, http.StatusBadRequest, nil); errorCode(b) != CodeBadRequest || !strings.Contains(string(b), "mode") {
			t.Fatalf("mode %q: %s", bad, b)
		}
	}
	e.call("POST", "/api/sessions/"+id+"/model", map[string]string{"model": "fake/other-model"}, http.StatusOK, &s)
	if s.Model != "fake/other-model" {
		t.Fatalf("model %+v", s)
	}
	if b := e.call("POST", "/api/sessions/"+id+"/model", map[string]string{"model": "two words"}, http.StatusBadRequest, nil); errorCode(b) != CodeBadRequest {
		t.Fatalf("bad model: %s", b)
	}
}

// TestErrors: the stable codes for bad bodies, unknown sessions, routes,
// requests and directories, and a workspace whose configuration does not
// parse (400 naming FILE:LINE).
func TestErrors(t *testing.T) {
	e := newTestEnv(t)
	id := e.newSession()
	broken := gitRepo(t)
	if err := os.MkdirAll(filepath.Join(broken, ".pincer"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(broken, ".pincer", "config.toml"), []byte("[permissions\nallow = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	notDir := filepath.Join(e.repo, "hello.txt")
	for _, tc := range []struct {
		name, method, path string
		body               any
		raw                string
		status             int
		code, mention      string
	}{
		{"bad json", "POST", "/api/sessions", nil, "{", 400, CodeBadRequest, "JSON"},
		{"unknown field", "POST", "/api/sessions", map[string]string{"dir": "/"}, "", 400, CodeBadRequest, "dir"},
		{"wrong type", "POST", "/api/sessions/" + id + "/turns", map[string]int{"input": 3}, "", 400, CodeBadRequest, "input"},
		{"wrong case", "POST", "/api/approvals/perm-x", map[string]string{"Decision": "allow"}, "", 400, CodeBadRequest, `did you mean \"decision\"`},
		{"array body", "POST", "/api/sessions", nil, `[]`, 400, CodeBadRequest, "body must be a JSON object"},
		{"two values", "POST", "/api/sessions", nil, `{"cwd":"/"} {}`, 400, CodeBadRequest, "more than one"},
		{"empty input", "POST", "/api/sessions/" + id + "/turns", map[string]string{"input": " "}, "", 400, CodeBadRequest, "input"},
		{"relative cwd", "POST", "/api/sessions", map[string]string{"cwd": "rel/dir"}, "", 400, CodeBadRequest, "cwd"},
		{"missing cwd", "POST", "/api/sessions", map[string]string{"cwd": filepath.Join(e.repo, "nope")}, "", 400, CodeBadRequest, "cwd"},
		{"file cwd", "POST", "/api/sessions", map[string]string{"cwd": notDir}, "", 400, CodeBadRequest, "not a directory"},
		{"broken config", "POST", "/api/sessions", map[string]string{"cwd": broken}, "", 400, CodeBadRequest, "config.toml:"},
		{"unknown session", "GET", "/api/sessions/nope", nil, "", 404, CodeNotFound, "nope"},
		{"unknown session turn", "POST", "/api/sessions/nope/turns", map[string]string{"input": "x"}, "", 404, CodeNotFound, "nope"},
		{"unknown session events", "GET", "/api/sessions/nope/events", nil, "", 404, CodeNotFound, "nope"},
		{"unknown session cancel", "POST", "/api/sessions/nope/cancel", map[string]string{}, "", 404, CodeNotFound, "nope"},
		{"unknown request", "POST", "/api/approvals/perm-nope", map[string]string{"decision": "deny"}, "", 404, CodeNotFound, "perm-nope"},
		{"unknown route", "GET", "/api/nothing", nil, "", 404, CodeNotFound, "/api/nothing"},
		{"wrong method", "DELETE", "/api/sessions", map[string]string{}, "", 404, CodeNotFound, "DELETE"},
		{"bad Last-Event-ID", "GET", "/api/sessions/" + id + "/events?after=x", nil, "", 400, CodeBadRequest, "after"},
	} {
		var resp *http.Response
		var b []byte
		if tc.raw != "" {
			req := e.request(tc.method, tc.path, nil, map[string]string{"Content-Type": "application/json"})
			req.Body = ioNopCloser(tc.raw)
			r, err := noRedirect.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp, b = r, readAll(t, r)
		} else {
			resp, b = e.do(tc.method, tc.path, tc.body, nil)
		}
		if resp.StatusCode != tc.status || errorCode(b) != tc.code || !strings.Contains(string(b), tc.mention) {
			t.Errorf("%s: %d %s, want %d %s mentioning %q", tc.name, resp.StatusCode, b, tc.status, tc.code, tc.mention)
		}
	}
}
