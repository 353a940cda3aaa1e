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

// TestTurnSlashCommands: a turn's /name input goes through `pincer run`'s
// invocation path — an unknown /name is 400 unknown_command naming it, a
// workbench-only one (and /context, a report this server has no route for)
// 400 not_available, both before any model call; a project's custom command
// expands into the turn as in `pincer run`.
func TestTurnSlashCommands(t *testing.T) {
	e := newTestEnv(t, openaitest.Reply{Text: "greeted"})
	e.srv.opts.WorkbenchCommands = []string{"/model", "/theme"}
	dir := filepath.Join(e.repo, ".pincer", "commands")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "greet.md"), []byte("---\ndescription: greet\n---\nSay hello to $ARGUMENTS, marker-4711.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	id := e.newSession()
	for _, tc := range []struct {
		input, code, mention string
	}{
		{"/nosuch", CodeUnknownCommand, "/nosuch"},
		{"/nosuch with args", CodeUnknownCommand, "unknown command /nosuch"},
		{"/context", CodeNotAvailable, "/context works in the workbench only"},
		{"/model fake/x", CodeNotAvailable, "/model works in the workbench only"},
		{"/greet.txt", CodeUnknownCommand, "put a word before it"},
	} {
		b := e.call("POST", "/api/sessions/"+id+"/turns", map[string]string{"input": tc.input}, http.StatusBadRequest, nil)
		if errorCode(b) != tc.code || !strings.Contains(string(b), tc.mention) {
			t.Errorf("%q: %s, want %s mentioning %q", tc.input, b, tc.code, tc.mention)
		}
	}
	if n := len(e.fake.Requests()); n != 0 {
		t.Fatalf("%d model calls for refused input", n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st := e.stream(ctx, id, "", nil)
	e.call("POST", "/api/sessions/"+id+"/turns", map[string]string{"input": "/greet the panel"}, http.StatusAccepted, nil)
	st.until(t, "turn.completed")
	reqs := e.fake.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model calls, want 1", len(reqs))
	}
	raw, _ := json.Marshal(reqs[0]["messages"])
	if !strings.Contains(string(raw), "Say hello to the panel, marker-4711.") {
		t.Fatalf("the command did not expand into the turn: %s", raw)
	}
}
