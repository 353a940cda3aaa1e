package tools

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestDefaultRegistry(t *testing.T) {
	r := Default()
	var names []string
	for _, tool := range r.All() {
		names = append(names, tool.Spec().Name)
		if strings.TrimSpace(tool.Spec().Description) == "" {
			t.Errorf("%s has no description", tool.Spec().Name)
		}
	}
	if want := []string{"Bash", "BashOutput", "KillShell", "Glob", "Grep", "Read", "Edit", "MultiEdit", "Write", "NotebookEdit", "TodoWrite", "ToolSearch"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("order = %v, want %v", names, want)
	}
	kinds := map[string]struct {
		kind Kind
		safe bool
	}{
		"Bash": {KindExecute, false}, "Glob": {KindRead, true}, "Grep": {KindRead, true},
		"Read": {KindRead, true}, "Edit": {KindEdit, false}, "MultiEdit": {KindEdit, false}, "Write": {KindEdit, false}, "NotebookEdit": {KindEdit, false},
		"ToolSearch": {KindRead, true}, "BashOutput": {KindRead, true}, "KillShell": {KindRead, false},
	}
	for name, want := range kinds {
		tool, ok := r.Get(name)
		if !ok {
			t.Fatalf("%s missing", name)
		}
		if sp := tool.Spec(); sp.Kind != want.kind || sp.ConcurrencySafe != want.safe {
			t.Errorf("%s: kind %s safe %v, want %s %v", name, tool.Spec().Kind, tool.Spec().ConcurrencySafe, want.kind, want.safe)
		}
	}
}

func TestSummaries(t *testing.T) {
	long := "go test ./... && go vet ./... && echo " + strings.Repeat("x", 100)
	tests := []struct {
		tool  Tool
		input string
		want  string
	}{
		{Typed(Read{}), `{"file_path": "main.go"}`, "Read main.go"},
		{Typed(Read{}), `{"file_path": "main.go", "offset": 10, "limit": 5}`, "Read main.go (lines 10-14)"},
		{Typed(Edit{}), `{"file_path": "main.go", "old_string": "a", "new_string": "b"}`, "Edit main.go"},
		{Typed(Write{}), `{"file_path": "pkg/x.go", "content": ""}`, "Write pkg/x.go"},
		{Typed(Bash{}), `{"command": "go test ./..."}`, "Bash: go test ./..."},
		{Typed(Bash{}), `{"command": "make\nmake install"}`, "Bash: make …"},
		{Typed(Bash{}), `{"command": ` + jsonString(long) + `}`, "Bash: " + long[:79] + "…"},
		{Typed(Grep{}), `{"pattern": "foo", "path": "src"}`, `Grep "foo" in src`},
		{Typed(Grep{}), `{"pattern": "foo", "glob": "*.go"}`, `Grep "foo" (*.go)`},
		{Typed(Grep{}), `{"pattern": "func\\s+\\w+"}`, `Grep "func\s+\w+"`},
		{Typed(Glob{}), `{"pattern": "**/*.go"}`, "Glob **/*.go"},
		{Typed(Glob{}), `{"pattern": "*.md", "path": "docs"}`, "Glob *.md in docs"},
	}
	for _, tt := range tests {
		if got := Summary(tt.tool, json.RawMessage(tt.input)); got != tt.want {
			t.Errorf("%s.Summary(%s) = %q, want %q", tt.tool.Spec().Name, tt.input, got, tt.want)
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestPaths(t *testing.T) {
	env, root := newTestEnv(t)
	writeTestFile(t, root, "src/a.go", "")
	tests := []struct {
		tool  Tool
		input string
		want  []string
	}{
		{Typed(Read{}), `{"file_path": "src/a.go"}`, []string{filepath.Join(root, "src", "a.go")}},
		{Typed(Edit{}), `{"file_path": "src/../src/a.go", "old_string": "a", "new_string": "b"}`, []string{filepath.Join(root, "src", "a.go")}},
		{Typed(Write{}), `{"file_path": "new/b.go", "content": ""}`, []string{filepath.Join(root, "new", "b.go")}},
		{Typed(Write{}), `{"file_path": "/etc/passwd", "content": ""}`, []string{"/etc/passwd"}},
		{Typed(Grep{}), `{"pattern": "x"}`, []string{root}},
		{Typed(Grep{}), `{"pattern": "x", "path": "src"}`, []string{filepath.Join(root, "src")}},
		{Typed(Glob{}), `{"pattern": "*"}`, []string{root}},
		{Typed(Bash{}), `{"command": "ls"}`, nil},
	}
	for _, tt := range tests {
		if got := Paths(tt.tool, env, json.RawMessage(tt.input)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s.Paths(%s) = %v, want %v", tt.tool.Spec().Name, tt.input, got, tt.want)
		}
	}
}

func TestFileState(t *testing.T) {
	s := NewFileState()
	if _, ok := s.Lookup("/a"); ok || s.Unchanged("/a", nil) {
		t.Fatal("empty state knows /a")
	}
	s.Record("/a", HashContent([]byte("x")), time.Time{})
	if !s.Unchanged("/a", []byte("x")) || s.Unchanged("/a", []byte("y")) {
		t.Fatal("Unchanged does not compare content")
	}
	s.Forget("/a")
	if _, ok := s.Lookup("/a"); ok {
		t.Fatal("Forget kept the record")
	}
	// Concurrent use (run with -race).
	done := make(chan bool)
	for i := range 8 {
		go func() {
			p := "/f" + string(rune('0'+i))
			for range 100 {
				s.RecordContent(p, []byte(p))
				s.Lookup(p)
			}
			done <- true
		}()
	}
	for range 8 {
		<-done
	}
}
