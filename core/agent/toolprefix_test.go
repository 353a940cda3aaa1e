package agent

import (
	"context"
	"strings"
	"testing"

	"pincer/core/message"
	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/tools"
)

// TestToolNamePrefixes: a call named with a namespace prefix runs the tool of its
// bare name, is stored and answered under that name, and never reaches a different
// tool; a real tool whose name has the prefix wins over the bare one.
func TestToolNamePrefixes(t *testing.T) {
	for _, tc := range []struct {
		called string
		ran    string // the tool that ran; "" for an unknown-tool failure
	}{
		{"Read", "Read"},
		{"functions.Read", "Read"},
		{"functions:Read", "Read"},
		{"assistant.Read", "Read"},
		{"assistant:Read", "Read"},
		{"functions.functions.Read", ""}, // one prefix only
		{"functions.", ""},
		{"functions.Missing", ""},
		{"function.Read", ""}, // not a known namespace
		{"Functions.Read", ""},
		{"functions.Reader", ""},             // never a different tool
		{"functions.Bash", "functions.Bash"}, // a real tool of that name wins
		{"tools.Read", ""},
	} {
		t.Run(tc.called, func(t *testing.T) {
			ran := map[string]int{}
			mk := func(name string) *fakeTool {
				return &fakeTool{name: name, kind: tools.KindRead, run: func(context.Context, []byte) (tools.Result, error) {
					ran[name]++
					return tools.Result{Output: "ran " + name}, nil
				}}
			}
			prov := &providertest.Scripted{Steps: []providertest.Step{
				providertest.ToolCalls(providertest.ToolCall("c1", tc.called, `{"x":"1"}`)), providertest.Text("done")}}
			h := newHarness(t, prov, permission.ModeBypass, mk("Read"), mk("Bash"), mk("functions.Bash"))
			h.submit(context.Background(), "go")
			res := h.toolResults()["c1"]
			if tc.ran == "" {
				if len(ran) != 0 || !res.IsError || !strings.Contains(res.Text, "unknown tool") {
					t.Fatalf("ran %v, result %+v", ran, res)
				}
				return
			}
			if len(ran) != 1 || ran[tc.ran] != 1 || res.IsError || res.Text != "ran "+tc.ran {
				t.Fatalf("ran %v, result %+v, want %s", ran, res, tc.ran)
			}
			var stored message.Part
			for _, m := range h.messages() {
				for _, c := range m.ToolCalls() {
					stored = c
				}
			}
			if stored.ToolName != tc.ran || res.ToolName != tc.ran {
				t.Errorf("stored call %q, result %q, want %q", stored.ToolName, res.ToolName, tc.ran)
			}
		})
	}
}
