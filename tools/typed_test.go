package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestTypedDecodeError: an input that passes for JSON but does not decode
// into the input struct (a wrong type, a number too large) is an
// "invalid input" error from Run and Preview, which the model reads as the tool
// result, and never a panic; Summary falls back to the tool's name and Paths to
// nil. Nothing is run or written.
func TestTypedDecodeError(t *testing.T) {
	env, root := newTestEnv(t)
	for _, tc := range []struct {
		tool  string
		input string
	}{
		{"Bash", `{"command": "touch PROOF", "timeout": 1e40}`},
		{"Edit", `{"file_path": 3, "old_string": "", "new_string": "PROOF"}`},
		{"Write", `{"file_path": "PROOF", "content": ["x"]}`},
		{"Read", `{"file_path": "f", "offset": "ten"}`},
		{"TodoWrite", `{"todos": {"content": "x"}}`},
		{"Grep", `{"pattern": "x", "-A": true}`},
		{"Glob", `{"pattern": 1}`},
		{"Edit", `[1, 2]`},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			tool, _ := Default().Get(tc.tool)
			input := json.RawMessage(tc.input)
			_, err := tool.Run(context.Background(), env, input)
			if err == nil || !strings.HasPrefix(err.Error(), "invalid input: ") {
				t.Errorf("Run error = %v, want invalid input", err)
			}
			if pv, ok := tool.(Previewer); ok {
				if _, err := pv.Preview(env, input); err == nil || !strings.HasPrefix(err.Error(), "invalid input: ") {
					t.Errorf("Preview error = %v, want invalid input", err)
				}
			}
			if got := Summary(tool, input); got != tc.tool {
				t.Errorf("Summary = %q, want the tool's name", got)
			}
			if got := Paths(tool, env, input); got != nil {
				t.Errorf("Paths = %v, want nil", got)
			}
		})
	}
	if got := snapshot(t, root); len(got) != 1 {
		t.Errorf("the workspace changed: %v", got)
	}
}

// TestTypedCapabilities: Typed offers Preview exactly for tools that preview,
// and keeps the tool's Spec.
func TestTypedCapabilities(t *testing.T) {
	for _, tool := range Default().All() {
		_, previews := tool.(Previewer)
		if want := tool.Spec().Kind == KindEdit; previews != want {
			t.Errorf("%s: Previewer %v, want %v (the file-changing tools)", tool.Spec().Name, previews, want)
		}
	}
	if got, want := Typed(Edit{}).Spec().Name, (Edit{}).Spec().Name; got != want {
		t.Errorf("Spec name %q, want %q", got, want)
	}
}
