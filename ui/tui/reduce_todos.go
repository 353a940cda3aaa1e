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
	TurnID string   // the turn of that call
	prev   []string // the list before CallID, restored when that call fails
	prevOf string   // the turn of prev
}

// liveTodos is the task list to show: the current turn's latest TodoWrite
// list, none before the current turn called TodoWrite (the previous turn's
// list does not come back) and none once all its items are completed — as
// Claude Code shows the current todo list.
func (m *Model) liveTodos() []string {
	if m.Todos.TurnID == "" || m.Todos.TurnID != m.Status.TurnID {
		return nil
	}
	for _, it := range m.Todos.Items {
		if !strings.HasPrefix(it, "[x]") {
			return m.Todos.Items
		}
	}
	return nil
}

// todoStarted takes the list of a TodoWrite call as it starts.
func (m *Model) todoStarted(turnID string, d event.ToolStartedData) {
	if d.Name != "TodoWrite" {
		return
	}
	text, ok := agent.RenderTodoInput(d.Input)
	if !ok {
		return
	}
	m.Todos = todoList{Items: strings.Split(strings.TrimSuffix(text, "\n"), "\n"), CallID: d.ToolCallID, TurnID: turnID,
		prev: m.Todos.Items, prevOf: m.Todos.TurnID}
	if text == "" {
		m.Todos.Items = nil
	}
}

// todoCompleted restores the list before a TodoWrite call that failed (the
// tool refused the list: it is not the session's).
func (m *Model) todoCompleted(d event.ToolCompletedData) {
	if d.IsError && d.ToolCallID == m.Todos.CallID && m.Todos.CallID != "" {
		m.Todos = todoList{Items: m.Todos.prev, TurnID: m.Todos.prevOf}
	}
}
