package agent

import (
	"encoding/json"

	"pincer/core/message"
	"pincer/tools"
)

// TodosOf returns a session's task list from its transcript: the input of the latest
// TodoWrite call whose result was not an error (TodoWrite replaces the whole list per
// call, as Claude Code's). The stored transcript is the store of the list, so it
// survives restarts and compaction; nil when the session never wrote one.
func TodosOf(msgs []message.Message) []tools.Todo {
	failed := map[string]bool{}
	for _, m := range msgs {
		if r, ok := m.ToolResult(); ok && r.IsError {
			failed[r.ToolCallID] = true
		}
	}
	answered := map[string]bool{}
	for _, m := range msgs {
		if r, ok := m.ToolResult(); ok {
			answered[r.ToolCallID] = true
		}
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		calls := msgs[i].ToolCalls()
		for j := len(calls) - 1; j >= 0; j-- {
			c := calls[j]
			if c.ToolName != "TodoWrite" || failed[c.ToolCallID] || !answered[c.ToolCallID] {
				continue
			}
			var in tools.TodoWriteInput
			if json.Unmarshal([]byte(c.Input), &in) == nil {
				return in.Todos
			}
		}
	}
	return nil
}

// RenderTodoInput renders the task list of a TodoWrite call's input (its JSON
// arguments) as tools.RenderTodos does, one item a line: "[x] done",
// "[>] current (activeForm)", "[ ] pending". ok is false when the input is no
// TodoWrite list. For views that show the list live (the workbench), which
// do not import tools.
func RenderTodoInput(input string) (text string, ok bool) {
	var in tools.TodoWriteInput
	if json.Unmarshal([]byte(input), &in) != nil || in.Todos == nil {
		return "", false
	}
	return tools.RenderTodos(in.Todos), true
}

// RenderTodosOf is the session's latest task list (TodosOf) rendered as
// RenderTodoInput does, one item a line; ok is false when the transcript holds
// none. For the command line's session view, which does not import tools.
func RenderTodosOf(msgs []message.Message) (text string, ok bool) {
	todos := TodosOf(msgs)
	if todos == nil {
		return "", false
	}
	return tools.RenderTodos(todos), true
}
