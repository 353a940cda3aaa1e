package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
)

//go:embed todowrite.md
var todoWriteDescription string

// TodoStatus is the state of one todo item.
type TodoStatus string

// Todo statuses.
const (
	TodoPending    TodoStatus = "pending"
	TodoInProgress TodoStatus = "in_progress"
	TodoCompleted  TodoStatus = "completed"
)

// Todo is one item of a session's task list, as Claude Code's TodoWrite.
type Todo struct {
	// Content is the task in the imperative: "Run the tests".
	Content string `json:"content"`
	// Status is pending, in_progress or completed.
	Status TodoStatus `json:"status"`
	// ActiveForm is the task in the present continuous, shown while it is in
	// progress: "Running the tests".
	ActiveForm string `json:"activeForm"`
}

// TodoWriteInput is the input of the TodoWrite tool: the whole new list.
type TodoWriteInput struct {
	Todos []Todo `json:"todos"`
}

const todoWriteSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "todos": {
      "type": "array",
      "description": "The complete, updated task list; it replaces the previous one.",
      "items": {
        "type": "object",
        "properties": {
          "content": {"type": "string", "minLength": 1, "description": "The task, in the imperative: \"Run the tests\"."},
          "status": {"type": "string", "enum": ["pending", "in_progress", "completed"], "description": "The task's state; at most one task is in_progress."},
          "activeForm": {"type": "string", "description": "The task in the present continuous, shown while it is in progress: \"Running the tests\"."}
        },
        "required": ["content", "status", "activeForm"],
        "additionalProperties": false
      }
    }
  },
  "required": ["todos"],
  "additionalProperties": false
}`

// TodoStore keeps each session's task list. Implementations must be safe for
// concurrent use; Todos returns nil for a session without a list.
type TodoStore interface {
	// SetTodos replaces the session's list with todos (an empty list clears it).
	SetTodos(sessionID string, todos []Todo) error
	// Todos returns the session's current list.
	Todos(sessionID string) ([]Todo, error)
}

// MemoryTodoStore is a TodoStore in memory, per session. The zero value is ready.
type MemoryTodoStore struct {
	mu    sync.Mutex
	lists map[string][]Todo
}

// SetTodos replaces the list of sessionID with a copy of todos.
func (m *MemoryTodoStore) SetTodos(sessionID string, todos []Todo) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.lists == nil {
		m.lists = map[string][]Todo{}
	}
	m.lists[sessionID] = append([]Todo(nil), todos...)
	return nil
}

// Todos returns a copy of the list of sessionID.
func (m *MemoryTodoStore) Todos(sessionID string) ([]Todo, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Todo(nil), m.lists[sessionID]...), nil
}

// defaultTodoStore holds the lists of TodoWrite values without a Store.
var defaultTodoStore = &MemoryTodoStore{}

// TodoWrite is the task-list tool, as Claude Code's TodoWrite: each call replaces
// the session's whole list, and at most one item may be in progress.
//
// Its Kind is KindRead although it writes: it changes only the session's task
// list, never a file or the world outside, so like Claude Code it needs no
// approval (and works in plan mode). It is not ConcurrencySafe: two calls in one
// response each replace the list, so they must run in the order given.
type TodoWrite struct {
	// Store keeps the lists; nil keeps them in memory, shared by every TodoWrite
	// without a Store, for the life of the process.
	Store TodoStore
}

// Spec describes TodoWrite: KindRead (the call touches no file and runs
// nothing), not concurrency-safe (calls replace shared state and must keep
// their order).
func (TodoWrite) Spec() Spec {
	return Spec{Name: "TodoWrite", Description: todoWriteDescription, Schema: json.RawMessage(todoWriteSchema), Kind: KindRead}
}

// Summary returns "TodoWrite: 3 items (1 in progress)", or "(all completed)", or
// "TodoWrite: cleared" for an empty list.
func (TodoWrite) Summary(in TodoWriteInput) string {
	if len(in.Todos) == 0 {
		return "TodoWrite: cleared"
	}
	c := countTodos(in.Todos)
	s := fmt.Sprintf("TodoWrite: %d items", len(in.Todos))
	if len(in.Todos) == 1 {
		s = "TodoWrite: 1 item"
	}
	switch {
	case c.inProgress > 0:
		s += fmt.Sprintf(" (%d in progress)", c.inProgress)
	case c.completed == len(in.Todos):
		s += " (all completed)"
	}
	return s
}

// Run checks the list and stores it for the session. Errors: an item without
// content, an unknown status, more than one item in progress. It has no Paths:
// TodoWrite touches no files.
func (t TodoWrite) Run(ctx context.Context, env *Env, in TodoWriteInput) (Result, error) {
	if err := validateTodos(in.Todos); err != nil {
		return Result{}, err
	}
	sessionID := ""
	if env != nil {
		sessionID = env.SessionID
	}
	store := t.Store
	if store == nil {
		store = defaultTodoStore
	}
	if err := store.SetTodos(sessionID, in.Todos); err != nil {
		return Result{}, fmt.Errorf("saving the todo list: %w", err)
	}
	return Result{Output: todoOutput(in.Todos)}, nil
}

// validateTodos checks every item and that at most one is in progress.
func validateTodos(todos []Todo) error {
	var active []string
	for i, td := range todos {
		if strings.TrimSpace(td.Content) == "" {
			return fmt.Errorf("todos[%d]: content must not be empty", i)
		}
		switch td.Status {
		case TodoPending, TodoCompleted:
		case TodoInProgress:
			active = append(active, fmt.Sprintf("%q", td.Content))
		default:
			return fmt.Errorf("todos[%d]: status must be pending, in_progress or completed, not %q", i, td.Status)
		}
	}
	if len(active) > 1 {
		return errors.New("only one task may be in_progress at a time, but " + fmt.Sprint(len(active)) +
			" are: " + strings.Join(active, ", ") + ". Keep the one you are working on in_progress and mark the others pending or completed")
	}
	return nil
}

// todoCounts are the numbers of items of a list by status.
type todoCounts struct{ pending, inProgress, completed int }

// countTodos counts the items of todos by status.
func countTodos(todos []Todo) todoCounts {
	var c todoCounts
	for _, td := range todos {
		switch td.Status {
		case TodoInProgress:
			c.inProgress++
		case TodoCompleted:
			c.completed++
		default:
			c.pending++
		}
	}
	return c
}

// todoOutput is what the model reads back: a confirmation and the list.
func todoOutput(todos []Todo) string {
	if len(todos) == 0 {
		return "Todo list cleared."
	}
	c := countTodos(todos)
	var b strings.Builder
	fmt.Fprintf(&b, "Todo list updated: %d completed, %d in progress, %d pending.\n", c.completed, c.inProgress, c.pending)
	b.WriteString(RenderTodos(todos))
	if c.completed < len(todos) && c.inProgress == 0 {
		b.WriteString("No task is in progress: mark the next one in_progress before you start on it.\n")
	}
	return b.String()
}

// RenderTodos renders a list one item a line: "[x] done", "[>] current
// (activeForm)", "[ ] pending". Each item is put on one line.
func RenderTodos(todos []Todo) string {
	var b strings.Builder
	for _, td := range todos {
		content := flatten(td.Content)
		switch td.Status {
		case TodoCompleted:
			b.WriteString("[x] " + content)
		case TodoInProgress:
			b.WriteString("[>] " + content)
			if a := flatten(td.ActiveForm); a != "" && a != content {
				b.WriteString(" (" + a + ")")
			}
		default:
			b.WriteString("[ ] " + content)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// flatten puts s on one line: runs of whitespace, newlines included, become one
// space.
func flatten(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
