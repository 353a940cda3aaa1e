package tui

import (
	"strings"
	"testing"

	"pincer/core/event"
)

// TestLiveTodosOfTheTurn: the task list shows only once the current turn
// called TodoWrite (the previous turn's "1 of 3 done" does not come back),
// and a list whose items are all completed shows nothing (as Claude Code).
func TestLiveTodosOfTheTurn(t *testing.T) {
	three := todoInput([2]string{"a", "completed"}, [2]string{"b", "in_progress"}, [2]string{"c", "pending"})
	allDone := todoInput([2]string{"a", "completed"}, [2]string{"b", "completed"})
	cases := []struct {
		name string
		evs  func(r *recorder)
		want int // items shown
	}{
		{"this turn's list", func(r *recorder) {
			r.add(event.TurnStarted, "t1", event.TurnStartedData{Input: "go"}).
				add(event.ToolStarted, "t1", event.ToolStartedData{ToolCallID: "c1", Name: "TodoWrite", Input: three})
		}, 3},
		{"the previous turn's list", func(r *recorder) {
			r.add(event.TurnStarted, "t1", event.TurnStartedData{Input: "go"}).
				add(event.ToolStarted, "t1", event.ToolStartedData{ToolCallID: "c1", Name: "TodoWrite", Input: three}).
				add(event.TurnCompleted, "t1", event.TurnCompletedData{StopReason: "stop"}).
				add(event.TurnStarted, "t2", event.TurnStartedData{Input: "something else"})
		}, 0},
		{"the next turn writes its own", func(r *recorder) {
			r.add(event.TurnStarted, "t1", event.TurnStartedData{Input: "go"}).
				add(event.ToolStarted, "t1", event.ToolStartedData{ToolCallID: "c1", Name: "TodoWrite", Input: three}).
				add(event.TurnStarted, "t2", event.TurnStartedData{Input: "more"}).
				add(event.ToolStarted, "t2", event.ToolStartedData{ToolCallID: "c2", Name: "TodoWrite", Input: todoInput([2]string{"x", "pending"})})
		}, 1},
		{"all completed", func(r *recorder) {
			r.add(event.TurnStarted, "t1", event.TurnStartedData{Input: "go"}).
				add(event.ToolStarted, "t1", event.ToolStartedData{ToolCallID: "c1", Name: "TodoWrite", Input: allDone})
		}, 0},
		{"a refused list restores this turn's", func(r *recorder) {
			r.add(event.TurnStarted, "t1", event.TurnStartedData{Input: "go"}).
				add(event.ToolStarted, "t1", event.ToolStartedData{ToolCallID: "c1", Name: "TodoWrite", Input: three}).
				add(event.ToolStarted, "t1", event.ToolStartedData{ToolCallID: "c2", Name: "TodoWrite", Input: allDone}).
				add(event.ToolCompleted, "t1", event.ToolCompletedData{ToolCallID: "c2", Name: "TodoWrite", IsError: true})
		}, 3},
	}
	for _, c := range cases {
		r := &recorder{t: t}
		c.evs(r)
		m := applyAll(r.evs)
		if got := m.liveTodos(); len(got) != c.want {
			t.Errorf("%s: shows %d items (%s), want %d", c.name, len(got), strings.Join(got, "; "), c.want)
		}
	}
}
