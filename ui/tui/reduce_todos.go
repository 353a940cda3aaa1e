package tui

import (
	"strings"

	"pincer/core/agent"
	"pincer/core/event"
)

// todoList is the session's latest TodoWrite list as the log tells it (the
// model replaces the whole list per call, as Claude Code's).
type todoList struct {
	Items  []string // rendered, one item a line: "[x] done", "[>] current", "[ ] pending"
	CallID string   // the TodoWrite call that wrote it
	prev   []string // the list before CallID, restored when that call fails
}

// todoStarted takes the list of a TodoWrite call as it starts.
func (m *Model) todoStarted(d event.ToolStartedData) {
	if d.Name != "TodoWrite" {
		return
	}
	text, ok := agent.RenderTodoInput(d.Input)
	if !ok {
		return
	}
	m.Todos = todoList{Items: strings.Split(strings.TrimSuffix(text, "\n"), "\n"), CallID: d.ToolCallID, prev: m.Todos.Items}
	if text == "" {
		m.Todos.Items = nil
	}
}

// todoCompleted restores the list before a TodoWrite call that failed (the
// tool refused the list: it is not the session's).
func (m *Model) todoCompleted(d event.ToolCompletedData) {
	if d.IsError && d.ToolCallID == m.Todos.CallID && m.Todos.CallID != "" {
		m.Todos = todoList{Items: m.Todos.prev}
	}
}
