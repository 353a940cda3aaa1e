package agent

import (
	"context"
	"os"
	"path/filepath"
	"pincer/core/event"
	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/tools"
	"strings"
	"testing"
)

// TestDuplicateKey: a key given twice in one object, at any depth, is found;
// equal keys in different objects are not duplicates.
func TestDuplicateKey(t *testing.T) {
	for raw, want := range map[string]string{
		`{"command":"ls","command":"touch PROOF"}`:                "command",
		`{"a":1,"b":{"c":1,"c":2}}`:                               "b.c",
		`{"todos":[{"id":"1"},{"id":"2","id":"3"}]}`:              "todos[1].id",
		`{"a":{"x":1},"b":{"x":1}}`:                               "",
		`{"command":"ls","description":"list"}`:                   "",
		`{"s":"{\"k\":1,\"k\":2}"}`:                               "", // inside a string: not JSON structure
		`not json`:                                                "",
		`{"file_path":"a","old_string":"x","file_path":"/etc/x"}`: "file_path",
	} {
		if got := duplicateKey([]byte(raw)); got != want {
			t.Errorf("duplicateKey(%s) = %q, want %q", raw, got, want)
		}
	}
}

// TestDuplicateKeyCallIsRefused: a Bash call whose command is given twice runs
// neither command; the model reads why.
func TestDuplicateKeyCallIsRefused(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "Bash", `{"command":"true","command":"touch PROOF-dup"}`)),
		{Events: providertest.TextEvents("ok")},
	}}
	h := newHarnessWith(t, prov, memory.New(), Config{PermissionMode: permission.ModeBypass}, tools.Default().All()...)
	h.submit(context.Background(), "go")
	results := eventsOf(h.events(), event.ToolCompleted)
	if len(results) != 1 {
		t.Fatalf("%d tool results, want 1", len(results))
	}
	for _, ev := range results {
		p, _ := ev.Payload()
		if d := p.(event.ToolCompletedData); !d.IsError || !strings.Contains(d.Output, `"command" is given twice`) {
			t.Errorf("result %+v", d)
		}
	}
	if _, err := os.Stat(filepath.Join(h.ag.cfg.Workspace.Root(), "PROOF-dup")); err == nil {
		t.Fatal("the second command ran")
	}
}
