package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

// TestTextProtocolSessionWhenToolsAreRefused: a server that 400s on every
// request carrying tools (as Ollama does for a model without function
// calling) makes pincer switch the model to the text protocol, say so once,
// run the model's `command:` as a real Bash call and send its output back;
// the switch is remembered under DATA for the next run.
func TestTextProtocolSessionWhenToolsAreRefused(t *testing.T) {
	e := newEnv(t,
		openaitest.Reply{Text: "Let me look.\ncommand: echo made > made.txt && cat hello.txt"},
		openaitest.Reply{Text: "text: hello.txt says hello world"},
	)
	e.fake.RefuseTools(`{"error":"registry.ollama.ai/library/tiny:1b does not support tools"}`)
	out, stderr, code := e.run(e.runArgs("--permission-mode", "bypassPermissions", "--output-format", "stream-json", "what is in hello.txt?")...)
	if code != 0 {
		t.Fatalf("exit %d, stderr: %s", code, stderr)
	}
	if got := e.read("made.txt"); got != "made\n" {
		t.Errorf("made.txt = %q: the command did not run", got)
	}
	var bash *streamEvent
	evs := parseStream(t, out)
	for i, ev := range evs {
		if ev.Type == "tool.completed" && ev.Name == "Bash" {
			bash = &evs[i]
		}
	}
	if bash == nil || bash.IsError || !strings.Contains(bash.Output, "hello world") {
		t.Fatalf("Bash call: %+v", bash)
	}
	if strings.Count(out, `"source":"protocol"`) != 1 || !strings.Contains(out, "does not support tools") {
		t.Errorf("want the switch said once:\n%s", out)
	}
	reqs := e.fake.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (refused, command, answer)", len(reqs))
	}
	if _, ok := reqs[1]["tools"]; ok {
		t.Errorf("a text-protocol request carries tools")
	}
	msgs, _ := reqs[2]["messages"].([]any)
	last, _ := msgs[len(msgs)-1].(map[string]any)
	if content, _ := last["content"].(string); last["role"] != "user" || !strings.HasPrefix(content, "command output:\n") || !strings.Contains(content, "hello world") {
		t.Errorf("the output went back as %v", last)
	}
	state, err := os.ReadFile(filepath.Join(e.home, "data", "text-protocol-models.json"))
	var st struct{ Models []string }
	if err != nil || json.Unmarshal(state, &st) != nil || len(st.Models) != 1 {
		t.Fatalf("state file: %s %v", state, err)
	}

	// The next run goes straight to the text protocol, without a word.
	e.fake.Push(openaitest.Reply{Text: "text: still here"})
	out, stderr, code = e.run(e.runArgs("--permission-mode", "bypassPermissions", "--output-format", "text", "again")...)
	if code != 0 || !strings.Contains(out, "still here") || strings.Contains(out+stderr, "does not support tools") {
		t.Fatalf("second run: exit %d, %q, %s", code, out, stderr)
	}
	if reqs := e.fake.Requests(); len(reqs) != 4 {
		t.Fatalf("%d requests after the second run, want 4", len(reqs))
	}
}
