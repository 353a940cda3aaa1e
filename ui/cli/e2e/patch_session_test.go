package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

// requestToolNames returns the function names a chat-completions request
// offered the model.
func requestToolNames(t *testing.T, req map[string]any) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	list, _ := req["tools"].([]any)
	for _, it := range list {
		fn, _ := it.(map[string]any)["function"].(map[string]any)
		if name, _ := fn["name"].(string); name != "" {
			names[name] = true
		}
	}
	if len(names) == 0 {
		t.Fatalf("the request offered no tools: %v", req["tools"])
	}
	return names
}

// runResult is the part of `pincer run --output-format json` the tests read.
type runResult struct {
	SessionID, Result string
	IsError           bool `json:"isError"`
	NumTurns          int  `json:"numTurns"`
}

func parseRunResult(t *testing.T, out string) runResult {
	t.Helper()
	var res runResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("json output %q: %v", out, err)
	}
	return res
}

// TestApplyPatchSessionGPT5: a gpt-5 model is offered apply_patch instead of
// Edit, MultiEdit and Write (as Codex), and one patch of it — an Add, an
// Update with Move to, and a Delete — changes a real git repository in
// acceptEdits mode without a question; git sees exactly those changes.
func TestApplyPatchSessionGPT5(t *testing.T) {
	patch := "*** Begin Patch\n" +
		"*** Add File: docs/new.txt\n+added by the patch\n" +
		"*** Update File: hello.txt\n*** Move to: greeting.txt\n@@\n-hello world\n+hello patch\n" +
		"*** Delete File: gone.txt\n" +
		"*** End Patch"
	args, _ := json.Marshal(map[string]string{"input": patch})
	e := newEnv(t,
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "p1", Name: "apply_patch", Args: string(args)}}},
		openaitest.Reply{Text: "Patched."},
	)
	e.write("gone.txt", "to be deleted\n")
	gitIn(t, e.repo, "add", "gone.txt")
	gitIn(t, e.repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "gone")
	out, stderr, code := e.run(e.runArgs("--model", "openai/gpt-5", "--permission-mode", "acceptEdits", "--output-format", "json", "rename and clean up")...)
	if code != 0 {
		t.Fatalf("exit %d, stderr: %s", code, stderr)
	}
	if res := parseRunResult(t, out); res.IsError || res.Result != "Patched." || res.NumTurns != 2 || res.SessionID == "" {
		t.Errorf("result %+v from %s", res, out)
	}
	reqs := e.fake.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if m, _ := reqs[0]["model"].(string); m != "gpt-5" {
		t.Errorf("request model %q", m)
	}
	names := requestToolNames(t, reqs[0])
	if !names["apply_patch"] || names["Edit"] || names["MultiEdit"] || names["Write"] || !names["Read"] || !names["Bash"] {
		t.Errorf("gpt-5 was offered %v, want apply_patch in place of Edit/MultiEdit/Write", names)
	}
	msgs, _ := reqs[1]["messages"].([]any)
	last, _ := msgs[len(msgs)-1].(map[string]any)
	if content, _ := last["content"].(string); last["role"] != "tool" || !strings.HasPrefix(content, "Success. Updated the following files:") ||
		!strings.Contains(content, "A docs/new.txt") || !strings.Contains(content, "M greeting.txt") || !strings.Contains(content, "D gone.txt") {
		t.Errorf("the tool result sent back: %v", last)
	}
	if got := e.read("docs/new.txt"); got != "added by the patch\n" {
		t.Errorf("docs/new.txt = %q", got)
	}
	if got := e.read("greeting.txt"); got != "hello patch\n" {
		t.Errorf("greeting.txt = %q", got)
	}
	for _, gone := range []string{"hello.txt", "gone.txt"} {
		if _, err := os.Stat(filepath.Join(e.repo, gone)); !os.IsNotExist(err) {
			t.Errorf("%s is still there (%v)", gone, err)
		}
	}
	if st := gitIn(t, e.repo, "status", "--porcelain", "--untracked-files=all"); st != " D gone.txt\n D hello.txt\n?? docs/new.txt\n?? greeting.txt\n" {
		t.Errorf("git status:\n%s", st)
	}
}

// TestMultiEditSession: a model that is not GPT-5 is offered Edit, MultiEdit
// and Write (not apply_patch); after a Read, one MultiEdit makes its edits in
// order (replace_all replaces each occurrence) and the file holds all of
// them; the result sent back carries the diff.
func TestMultiEditSession(t *testing.T) {
	args, _ := json.Marshal(map[string]any{"file_path": "code.go", "edits": []map[string]any{
		{"old_string": "func old()", "new_string": "func renamed()"},
		{"old_string": "func other()", "new_string": "func another()"},
		{"old_string": "x := 1", "new_string": "x := 2", "replace_all": true},
	}})
	e := newEnv(t,
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "r1", Name: "Read", Args: `{"file_path":"code.go"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "m1", Name: "MultiEdit", Args: string(args)}}},
		openaitest.Reply{Text: "Edited."},
	)
	e.write("code.go", "package p\n\nfunc old() {\n\tx := 1\n\t_ = x\n}\n\nfunc other() {\n\tx := 1\n\t_ = x\n}\n")
	out, stderr, code := e.run(e.runArgs("--permission-mode", "acceptEdits", "--output-format", "json", "rename it")...)
	if code != 0 {
		t.Fatalf("exit %d, stderr: %s", code, stderr)
	}
	if res := parseRunResult(t, out); res.IsError || res.Result != "Edited." || res.NumTurns != 3 {
		t.Errorf("result %+v from %s", res, out)
	}
	reqs := e.fake.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	names := requestToolNames(t, reqs[0])
	if !names["Edit"] || !names["MultiEdit"] || !names["Write"] || names["apply_patch"] {
		t.Errorf("test-model was offered %v, want Edit, MultiEdit and Write without apply_patch", names)
	}
	want := "package p\n\nfunc renamed() {\n\tx := 2\n\t_ = x\n}\n\nfunc another() {\n\tx := 2\n\t_ = x\n}\n"
	if got := e.read("code.go"); got != want {
		t.Errorf("code.go =\n%s\nwant\n%s", got, want)
	}
	msgs, _ := reqs[2]["messages"].([]any)
	last, _ := msgs[len(msgs)-1].(map[string]any)
	if content, _ := last["content"].(string); last["role"] != "tool" || !strings.Contains(content, "+func another()") {
		t.Errorf("the MultiEdit result sent back: %v", last)
	}
}
