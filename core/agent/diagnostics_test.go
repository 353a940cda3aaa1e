package agent

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/tools"
)

// fakeDiagnoser records what the agent tells it and answers a fixed segment
// once a file changed.
type fakeDiagnoser struct {
	mu      sync.Mutex
	turns   int
	changed [][]string
}

func (d *fakeDiagnoser) TurnStarted(string) { d.mu.Lock(); d.turns++; d.changed = nil; d.mu.Unlock() }
func (d *fakeDiagnoser) FilesChanged(_ context.Context, _ string, paths []string) {
	d.mu.Lock()
	d.changed = append(d.changed, paths)
	d.mu.Unlock()
}
func (d *fakeDiagnoser) Segment(string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.changed) == 0 {
		return ""
	}
	return "# Diagnostics\nDIAG-MARKER " + strings.Join(d.changed[len(d.changed)-1], ",")
}

// pathTool is a fakeTool that lists the path its input names.
type pathTool struct{ *fakeTool }

func (p pathTool) Paths(_ *tools.Env, input json.RawMessage) []string {
	var in struct{ X string }
	_ = json.Unmarshal(input, &in)
	return []string{"/abs/" + in.X}
}

// TestDiagnosticsAfterEdits: an edit tool that ran without error tells the
// Diagnoser its paths and the next model call's system prompt carries the
// segment; a read tool, a failed edit and the model call before any edit do
// not; each turn starts the Diagnoser's turn.
func TestDiagnosticsAfterEdits(t *testing.T) {
	edit := pathTool{&fakeTool{name: "E", kind: tools.KindEdit}}
	bad := pathTool{&fakeTool{name: "B", kind: tools.KindEdit, run: func(context.Context, []byte) (tools.Result, error) {
		return tools.Result{Output: "no", IsError: true}, nil
	}}}
	read := pathTool{&fakeTool{name: "R", kind: tools.KindRead}}
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "R", `{"x":"r.go"}`)),
		providertest.ToolCalls(providertest.ToolCall("c2", "B", `{"x":"b.go"}`)),
		providertest.ToolCalls(providertest.ToolCall("c3", "E", `{"x":"e.go"}`)),
	}}
	d := &fakeDiagnoser{}
	h := newHarnessWith(t, prov, memory.New(), Config{Diagnostics: d, PermissionMode: permission.ModeBypass}, edit, bad, read)
	h.submit(context.Background(), "go")
	if d.turns != 1 {
		t.Errorf("TurnStarted %d times in one turn", d.turns)
	}
	if len(d.changed) != 1 || len(d.changed[0]) != 1 || d.changed[0][0] != "/abs/e.go" {
		t.Fatalf("told of %v, want only the successful edit's /abs/e.go", d.changed)
	}
	system := func(i int) string {
		var b strings.Builder
		for _, m := range prov.Request(i).Messages {
			if m.Role == "system" {
				b.WriteString(m.Text())
			}
		}
		return b.String()
	}
	for i := 0; i < 3; i++ {
		if strings.Contains(system(i), "DIAG-MARKER") {
			t.Errorf("model call %d (before the edit) has diagnostics", i)
		}
	}
	if !strings.Contains(system(3), "DIAG-MARKER /abs/e.go") {
		t.Errorf("the call after the edit lacks the segment: %q", system(3))
	}
}
