package tools

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// TestSchemas compiles every tool's schema as draft 2020-12 and checks it accepts
// a good input and rejects bad ones.
func TestSchemas(t *testing.T) {
	cases := map[string]struct {
		good string
		bad  []string
	}{
		"Bash": {
			good: `{"command": "go test ./...", "timeout": 60000, "description": "Run tests"}`,
			bad:  []string{`{}`, `{"command": "ls", "timeout": 600001}`, `{"command": "ls", "timeout": 0}`, `{"command": "ls", "cwd": "/"}`},
		},
		"BashOutput": {
			good: `{"bash_id": "bash_1", "filter": "GET /"}`,
			bad:  []string{`{}`, `{"bash_id": ""}`, `{"bash_id": "x", "filter": 3}`, `{"shell_id": "x"}`},
		},
		"KillShell": {
			good: `{"shell_id": "bash_1"}`,
			bad:  []string{`{}`, `{"shell_id": ""}`, `{"bash_id": "x"}`},
		},
		"Glob": {
			good: `{"pattern": "**/*.go", "path": "src"}`,
			bad:  []string{`{"path": "src"}`, `{"pattern": ""}`, `{"pattern": "*", "extra": 1}`},
		},
		"Grep": {
			good: `{"pattern": "foo", "path": "src", "glob": "*.go", "type": "go", "output_mode": "content", "-i": true, "-n": false, "-A": 1, "-B": 2, "-C": 3, "multiline": true, "head_limit": 10}`,
			bad:  []string{`{"pattern": "x", "output_mode": "lines"}`, `{"pattern": "x", "-A": -1}`, `{"pattern": "x", "type": "cobol"}`, `{"pattern": "x", "head_limit": -1}`},
		},
		"Read": {
			good: `{"file_path": "/tmp/x", "offset": 10, "limit": 20}`,
			bad:  []string{`{}`, `{"file_path": "x", "limit": 0}`, `{"file_path": "x", "offset": -1}`, `{"file_path": 3}`},
		},
		"Edit": {
			good: `{"file_path": "a.go", "old_string": "a", "new_string": "b", "replace_all": true}`,
			bad:  []string{`{"file_path": "a.go", "old_string": "a"}`, `{"file_path": "a.go", "old_string": "a", "new_string": "b", "replace_all": "yes"}`},
		},
		"MultiEdit": {
			good: `{"file_path": "a.go", "edits": [{"old_string": "a", "new_string": "b", "replace_all": true}, {"old_string": "c", "new_string": "d"}]}`,
			bad:  []string{`{"file_path": "a.go"}`, `{"file_path": "a.go", "edits": []}`, `{"file_path": "a.go", "edits": [{"old_string": "a"}]}`, `{"file_path": "a.go", "edits": [{"old_string": "a", "new_string": "b", "x": 1}]}`},
		},
		"apply_patch": {
			good: `{"input": "*** Begin Patch\n*** End Patch"}`,
			bad:  []string{`{}`, `{"input": 3}`, `{"patch": "x"}`},
		},
		"Write": {
			good: `{"file_path": "a.go", "content": ""}`,
			bad:  []string{`{"file_path": "a.go"}`, `{"content": "x"}`},
		},
		"NotebookEdit": {
			good: `{"notebook_path": "/w/a.ipynb", "cell_id": "abc", "new_source": "x = 1", "cell_type": "code", "edit_mode": "insert"}`,
			bad:  []string{`{"notebook_path": "a.ipynb"}`, `{"new_source": "x"}`, `{"notebook_path": "a.ipynb", "new_source": "x", "cell_type": "raw"}`, `{"notebook_path": "a.ipynb", "new_source": "x", "edit_mode": "append"}`},
		},
		"TodoWrite": {
			good: `{"todos":[{"content":"a","status":"pending","activeForm":"A"}]}`,
			bad:  []string{`{}`, `{"todos":[{"content":"a","status":"later","activeForm":"A"}]}`},
		},
		"ToolSearch": {
			good: `{"query": "select:mcp__x__y", "max_results": 3}`,
			bad:  []string{`{}`, `{"query": 3}`, `{"query": "x", "max_results": "5"}`, `{"query": "x", "limit": 5}`},
		},
	}
	for _, tool := range append(Default().All(), Typed(ApplyPatch{})) { // apply_patch: offered instead of Edit (core/app)
		t.Run(tool.Spec().Name, func(t *testing.T) {
			tc, ok := cases[tool.Spec().Name]
			if !ok {
				t.Fatalf("no schema case for %s", tool.Spec().Name)
			}
			var m map[string]any
			if err := json.Unmarshal(tool.Spec().Schema, &m); err != nil {
				t.Fatalf("schema is not a JSON object: %v", err)
			}
			if m["additionalProperties"] != false || m["type"] != "object" {
				t.Errorf("schema must be an object with additionalProperties false")
			}
			for name, p := range m["properties"].(map[string]any) {
				if d, _ := p.(map[string]any)["description"].(string); d == "" {
					t.Errorf("property %s has no description", name)
				}
			}
			validate := testValidator(t, tool.Spec().Name, tool.Spec().Schema)
			if err := validate(tc.good); err != nil {
				t.Errorf("good input rejected: %v", err)
			}
			// The good input must also decode into the typed input.
			if !json.Valid([]byte(tc.good)) {
				t.Errorf("good input is not JSON")
			}
			for _, bad := range tc.bad {
				if err := validate(bad); err == nil {
					t.Errorf("bad input accepted: %s", bad)
				}
			}
		})
	}
}

// TestTypedInputsMatchSchemas checks that every field of the good inputs lands in
// the typed input (the JSON names in the structs agree with the schemas).
func TestTypedInputsMatchSchemas(t *testing.T) {
	var g GrepInput
	in := `{"pattern": "p", "path": "d", "glob": "*.go", "type": "go", "output_mode": "count", "-i": true, "-n": false, "-A": 1, "-B": 2, "-C": 3, "multiline": true, "head_limit": 10}`
	if err := json.Unmarshal([]byte(in), &g); err != nil {
		t.Fatal(err)
	}
	if g.Pattern != "p" || g.Path != "d" || g.Glob != "*.go" || g.Type != "go" || g.OutputMode != "count" || !g.IgnoreCase ||
		g.LineNumbers == nil || *g.LineNumbers || *g.After != 1 || *g.Before != 2 || *g.Context != 3 || !g.Multiline || g.HeadLimit != 10 {
		t.Fatalf("GrepInput decoded wrongly: %+v", g)
	}
	var b BashInput
	if err := json.Unmarshal([]byte(`{"command": "c", "timeout": 5, "description": "d", "run_in_background": true}`), &b); err != nil {
		t.Fatal(err)
	}
	if b.Command != "c" || b.Timeout != 5 || b.Description != "d" || !b.RunInBackground {
		t.Fatalf("BashInput decoded wrongly: %+v", b)
	}
	var e EditInput
	if err := json.Unmarshal([]byte(`{"file_path": "f", "old_string": "o", "new_string": "n", "replace_all": true}`), &e); err != nil {
		t.Fatal(err)
	}
	if e != (EditInput{FilePath: "f", OldString: "o", NewString: "n", ReplaceAll: true}) {
		t.Fatalf("EditInput decoded wrongly: %+v", e)
	}
	var r ReadInput
	if err := json.Unmarshal([]byte(`{"file_path": "f", "offset": 2, "limit": 3}`), &r); err != nil {
		t.Fatal(err)
	}
	if r != (ReadInput{FilePath: "f", Offset: 2, Limit: 3}) {
		t.Fatalf("ReadInput decoded wrongly: %+v", r)
	}
}

// testValidator resolves a tool's schema as draft 2020-12 with the validator
// core/agent uses (google/jsonschema-go) and returns a check of one JSON input.
func testValidator(t *testing.T, name string, schema json.RawMessage) func(string) error {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal(schema, &s); err != nil {
		t.Fatalf("%s schema: %v", name, err)
	}
	rs, err := s.Resolve(&jsonschema.ResolveOptions{BaseURI: "mem://" + name + ".json"})
	if err != nil {
		t.Fatalf("%s schema: resolve: %v", name, err)
	}
	return func(in string) error {
		var v any
		if err := json.Unmarshal([]byte(in), &v); err != nil {
			t.Fatalf("test input %s: %v", in, err)
		}
		return rs.Validate(v)
	}
}
