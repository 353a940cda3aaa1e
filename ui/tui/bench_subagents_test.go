package tui

import (
	"fmt"
	"testing"

	"github.com/gdamore/tcell/v2"

	"pincer/core/event"
	"pincer/themes"
)

// BenchmarkTimelineSubagents is the timeline's cost per frame with
// subagents: 200 tool calls of the session, 20 of them Agent calls, one
// expanded with its child's 1,000 steps (the rows cached: a frame where
// nothing changed), against the same session with none expanded.
func BenchmarkTimelineSubagents(b *testing.B) {
	sim := tcell.NewSimulationScreen("UTF-8")
	w, err := New(Options{Screen: sim, Theme: themes.Dark()})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Stop()
	l := &twoLogs{t: &testing.T{}}
	l.add("p", "t1", event.TurnStarted, event.TurnStartedData{Input: "go"})
	for i := range 200 {
		id := fmt.Sprintf("c%d", i)
		if i%10 == 0 {
			child := fmt.Sprintf("child-%d", i)
			l.add("p", "t1", event.ToolStarted, event.ToolStartedData{ToolCallID: id, Name: "Agent", Summary: "Agent: look"}).
				add("p", "t1", event.SubagentStarted, event.SubagentStartedData{ToolCallID: id, ChildSessionID: child, AgentType: "Explore", Description: "look around"})
			n := 5
			if i == 0 {
				n = 1000
			}
			for j := range n {
				l.add(child, "ct", event.ToolStarted, event.ToolStartedData{ToolCallID: fmt.Sprintf("g%d", j), Name: "Grep", Summary: fmt.Sprintf("Grep pattern%d", j)})
			}
			continue
		}
		l.add("p", "t1", event.ToolStarted, event.ToolStartedData{ToolCallID: id, Name: "Read", Summary: fmt.Sprintf("Read file%d.go", i)})
	}
	w.model = l.apply()
	for _, expanded := range []bool{false, true} {
		b.Run(fmt.Sprintf("expanded=%v", expanded), func(b *testing.B) {
			w.subs.expanded = map[string]bool{"child-0": expanded}
			rows := len(w.timelineRows())
			b.ReportAllocs()
			for b.Loop() {
				w.timelineRows()
			}
			b.ReportMetric(float64(rows), "rows")
		})
	}
}
