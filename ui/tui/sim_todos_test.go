package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"pincer/core/provider/providertest"
)

// todoInput is a TodoWrite call's arguments.
func todoInput(items ...[2]string) string {
	var parts []string
	for _, it := range items {
		parts = append(parts, `{"content":"`+it[0]+`","status":"`+it[1]+`","activeForm":"Doing `+it[0]+`"}`)
	}
	return `{"todos":[` + strings.Join(parts, ",") + `]}`
}

// Issue 12 (the habits users bring): while a turn runs, the TodoWrite list
// is visible above the input box and follows each TodoWrite; when the turn
// ends it goes.
func TestLiveTodoList(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("t1", "TodoWrite", todoInput([2]string{"read the code", "in_progress"}, [2]string{"fix the bug", "pending"}))),
		providertest.ToolCalls(providertest.ToolCall("r1", "Read", `{"file_path":"a.txt"}`)), // an Edit of an unread file fails unasked
		providertest.ToolCalls(providertest.ToolCall("e1", "Edit", `{"file_path":"a.txt","old_string":"a","new_string":"b"}`)),
		providertest.ToolCalls(providertest.ToolCall("t2", "TodoWrite", todoInput([2]string{"read the code", "completed"}, [2]string{"fix the bug", "in_progress"}))),
		{Block: true},
	}}
	b, _, _, root := attached(t, 120, 40, prov)
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b.waitFor("no task list while idle", func(s string) bool { return !strings.Contains(s, "Tasks ·") })
	b.send("fix it")
	s := b.waitText("1 awaiting approval", "Tasks · 0 of 2 done", "[>] read the code (Doing read the code)", "[ ] fix the bug")
	iy, _ := rowOf(s, "┌ Input") // the request took the focus to the queue (approval first)
	if y, _ := rowOf(s, "Tasks · 0 of 2 done"); y < iy-4 || y > iy-1 {
		t.Errorf("the task list on row %d, not just above the input box (row %d)\n%s", y, iy, s)
	}
	b.key(tcell.KeyRune, '3', tcell.ModAlt)
	b.afterReading("n")
	b.waitText("Tasks · 1 of 2 done", "[x] read the code", "[>] fix the bug (Doing fix the bug)")
	b.key(tcell.KeyEscape, 0, tcell.ModNone) // focus is on the approvals: Esc cancels the turn
	b.waitFor("the list to go with the turn", func(s string) bool {
		return strings.Contains(s, "cancelled") && !strings.Contains(s, "Tasks ·")
	})
}
