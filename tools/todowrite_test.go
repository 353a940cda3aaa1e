package tools

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestTodoWrite(t *testing.T) {
	tests := []struct {
		name    string
		todos   []Todo
		wantErr string
		wantOut string
	}{
		{
			name: "mixed list",
			todos: []Todo{
				{Content: "Read the code", Status: TodoCompleted, ActiveForm: "Reading the code"},
				{Content: "Fix the bug", Status: TodoInProgress, ActiveForm: "Fixing the bug"},
				{Content: "Run the tests", Status: TodoPending, ActiveForm: "Running the tests"},
			},
			wantOut: "Todo list updated: 1 completed, 1 in progress, 1 pending.\n[x] Read the code\n[>] Fix the bug (Fixing the bug)\n[ ] Run the tests\n",
		},
		{
			name:    "all completed",
			todos:   []Todo{{Content: "a", Status: TodoCompleted, ActiveForm: "A-ing"}},
			wantOut: "Todo list updated: 1 completed, 0 in progress, 0 pending.\n[x] a\n",
		},
		{
			name:    "pending without one in progress gets a reminder",
			todos:   []Todo{{Content: "a", Status: TodoPending, ActiveForm: "A-ing"}},
			wantOut: "[ ] a\nNo task is in progress",
		},
		{
			name:    "empty or repeated activeForm is not shown",
			todos:   []Todo{{Content: "Do\nit", Status: TodoInProgress, ActiveForm: "Do it"}},
			wantOut: "[>] Do it\n",
		},
		{name: "empty list clears", todos: []Todo{}, wantOut: "Todo list cleared."},
		{
			name: "two in progress",
			todos: []Todo{
				{Content: "one", Status: TodoInProgress, ActiveForm: "x"},
				{Content: "two", Status: TodoInProgress, ActiveForm: "y"},
			},
			wantErr: `only one task may be in_progress at a time, but 2 are: "one", "two"`,
		},
		{name: "blank content", todos: []Todo{{Content: "  ", Status: TodoPending}}, wantErr: "todos[0]: content must not be empty"},
		{name: "bad status", todos: []Todo{{Content: "a", Status: "done"}}, wantErr: `status must be pending, in_progress or completed, not "done"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := &MemoryTodoStore{}
			env, _ := newTestEnv(t)
			res, err := runTool(t, TodoWrite{Store: store}, env, TodoWriteInput{Todos: tt.todos})
			got, _ := store.Todos(env.SessionID)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				if got != nil {
					t.Errorf("a refused list was stored: %+v", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Output, tt.wantOut) || res.IsError {
				t.Errorf("output = %q, want it to contain %q", res.Output, tt.wantOut)
			}
			if !slices.Equal(got, tt.todos) && len(tt.todos) > 0 {
				t.Errorf("stored %+v, want %+v", got, tt.todos)
			}
		})
	}
}

func TestTodoWriteReplacesPerSession(t *testing.T) {
	store := &MemoryTodoStore{}
	tool := TodoWrite{Store: store}
	env, _ := newTestEnv(t)
	other := *env
	other.SessionID = "s2"
	first := []Todo{{Content: "a", Status: TodoPending, ActiveForm: "A"}, {Content: "b", Status: TodoPending, ActiveForm: "B"}}
	second := []Todo{{Content: "b", Status: TodoInProgress, ActiveForm: "B"}}
	for _, c := range []struct {
		env   *Env
		todos []Todo
	}{{env, first}, {&other, first}, {env, second}} {
		if _, err := runTool(t, tool, c.env, TodoWriteInput{Todos: c.todos}); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := store.Todos("s1"); !slices.Equal(got, second) {
		t.Errorf("s1 = %+v, want the second list only", got)
	}
	if got, _ := store.Todos("s2"); !slices.Equal(got, first) {
		t.Errorf("s2 = %+v", got)
	}
	// The stored list is a copy: changing the caller's slice does not reach it.
	got, _ := store.Todos("s2")
	got[0].Content = "changed"
	if again, _ := store.Todos("s2"); again[0].Content != "a" {
		t.Error("Todos returned the stored slice itself")
	}
}

func TestTodoWriteDefaultStore(t *testing.T) {
	env, _ := newTestEnv(t)
	env.SessionID = "default-store-test"
	todos := []Todo{{Content: "x", Status: TodoPending, ActiveForm: "X"}}
	if _, err := runTool(t, TodoWrite{}, env, TodoWriteInput{Todos: todos}); err != nil {
		t.Fatal(err)
	}
	if got, _ := defaultTodoStore.Todos("default-store-test"); !slices.Equal(got, todos) {
		t.Errorf("default store has %+v", got)
	}
}

// failingStore refuses every write.
type failingStore struct{ MemoryTodoStore }

func (*failingStore) SetTodos(string, []Todo) error { return errors.New("disk full") }

func TestTodoWriteStoreError(t *testing.T) {
	env, _ := newTestEnv(t)
	_, err := runTool(t, TodoWrite{Store: &failingStore{}}, env, TodoWriteInput{Todos: []Todo{}})
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("error = %v", err)
	}
}

func TestTodoWriteConcurrentSessions(t *testing.T) {
	store := &MemoryTodoStore{}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			env := &Env{SessionID: string(rune('a' + i))}
			if _, err := runTool(t, TodoWrite{Store: store}, env, TodoWriteInput{Todos: []Todo{{Content: "t", Status: TodoPending}}}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for i := range 8 {
		if got, _ := store.Todos(string(rune('a' + i))); len(got) != 1 {
			t.Errorf("session %d: %+v", i, got)
		}
	}
}

func TestTodoWriteSummary(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{`{"todos": [{"content": "a", "status": "completed", "activeForm": "A"}, {"content": "b", "status": "in_progress", "activeForm": "B"}, {"content": "c", "status": "pending", "activeForm": "C"}]}`, "TodoWrite: 3 items (1 in progress)"},
		{`{"todos": [{"content": "a", "status": "completed", "activeForm": "A"}, {"content": "b", "status": "completed", "activeForm": "B"}]}`, "TodoWrite: 2 items (all completed)"},
		{`{"todos": [{"content": "a", "status": "pending", "activeForm": "A"}]}`, "TodoWrite: 1 item"},
		{`{"todos": []}`, "TodoWrite: cleared"},
	}
	for _, tt := range tests {
		if got := Summary(Typed(TodoWrite{}), json.RawMessage(tt.in)); got != tt.want {
			t.Errorf("Summary(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTodoWriteShape(t *testing.T) {
	tool := Typed(TodoWrite{})
	if sp := tool.Spec(); sp.Name != "TodoWrite" || sp.Kind != KindRead || sp.ConcurrencySafe || sp.Description == "" {
		t.Errorf("shape: %s %s %v", sp.Name, sp.Kind, sp.ConcurrencySafe)
	}
	if p := Paths(tool, nil, json.RawMessage(`{"todos": []}`)); p != nil {
		t.Errorf("Paths = %v", p)
	}
}

// TestTodoWriteSchema checks the schema as TestSchemas does for the default tools
// (TodoWrite is not in Default).
func TestTodoWriteSchema(t *testing.T) {
	var m map[string]any
	if err := json.Unmarshal(TodoWrite{}.Spec().Schema, &m); err != nil {
		t.Fatal(err)
	}
	if m["additionalProperties"] != false || m["type"] != "object" {
		t.Error("schema must be an object with additionalProperties false")
	}
	validate := testValidator(t, "TodoWrite", TodoWrite{}.Spec().Schema)
	good := []string{
		`{"todos": []}`,
		`{"todos": [{"content": "a", "status": "pending", "activeForm": "A"}, {"content": "b", "status": "in_progress", "activeForm": ""}]}`,
	}
	bad := []string{
		`{}`,
		`{"todos": {}}`,
		`{"todos": [], "extra": 1}`,
		`{"todos": [{"content": "", "status": "pending", "activeForm": "A"}]}`,
		`{"todos": [{"content": "a", "status": "done", "activeForm": "A"}]}`,
		`{"todos": [{"content": "a", "status": "pending"}]}`,
		`{"todos": [{"content": "a", "status": "pending", "activeForm": "A", "id": "1"}]}`,
	}
	for _, s := range good {
		if err := validate(s); err != nil {
			t.Errorf("good input rejected: %s: %v", s, err)
		}
		var in TodoWriteInput
		if err := json.Unmarshal([]byte(s), &in); err != nil {
			t.Errorf("good input does not decode: %v", err)
		}
	}
	for _, s := range bad {
		if err := validate(s); err == nil {
			t.Errorf("bad input accepted: %s", s)
		}
	}
	var in TodoWriteInput
	if err := json.Unmarshal([]byte(`{"todos": [{"content": "c", "status": "in_progress", "activeForm": "a"}]}`), &in); err != nil {
		t.Fatal(err)
	}
	if len(in.Todos) != 1 || in.Todos[0] != (Todo{Content: "c", Status: TodoInProgress, ActiveForm: "a"}) {
		t.Errorf("TodoWriteInput decoded wrongly: %+v", in)
	}
}
