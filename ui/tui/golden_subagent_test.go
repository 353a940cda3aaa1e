package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/core/event"
)

// goldenSubagentSteps is a parent turn whose Agent call runs an Explore
// subagent (child session "child-1") that read a file, searched, and now
// asks to run a command; the parent's own Edit waits too.
func goldenSubagentSteps(t *testing.T) []logStep {
	l := &twoLogs{t: t}
	l.add("p", "", event.SessionCreated, event.SessionCreatedData{Cwd: "/w", Model: "fake/m"}).
		add("p", "t1", event.TurnStarted, event.TurnStartedData{Input: "find where the config loads, then fix it"}).
		add("p", "t1", event.MessageCompleted, event.MessageCompletedData{MessageID: "m1", Role: "assistant", Text: "I will ask an Explore subagent."}).
		add("p", "t1", event.ToolStarted, event.ToolStartedData{ToolCallID: "a1", Name: "Agent", Summary: "Agent: find the config loader"}).
		add("p", "t1", event.SubagentStarted, event.SubagentStartedData{ToolCallID: "a1", ChildSessionID: "child-1", AgentType: "Explore", Description: "find the config loader"}).
		add("child-1", "ct1", event.TurnStarted, event.TurnStartedData{Input: "find the config loader"}).
		add("child-1", "ct1", event.UsageReported, event.UsageData{InputTokens: 100}).
		add("child-1", "ct1", event.ToolStarted, event.ToolStartedData{ToolCallID: "r1", Name: "Read", Summary: "Read config.go"}).
		add("child-1", "ct1", event.ToolCompleted, event.ToolCompletedData{ToolCallID: "r1", Name: "Read", Output: "package config\n", DurationMs: 4}).
		add("child-1", "ct1", event.ToolStarted, event.ToolStartedData{ToolCallID: "g1", Name: "Grep", Summary: "Grep loadConfig"}).
		add("child-1", "ct1", event.ToolCompleted, event.ToolCompletedData{ToolCallID: "g1", Name: "Grep", Output: "config.go:12\n", DurationMs: 9}).
		add("child-1", "ct1", event.UsageReported, event.UsageData{InputTokens: 200}).
		add("child-1", "ct1", event.PermissionRequested, event.PermissionRequestedData{RequestID: "q1", ToolCallID: "b1", Name: "Bash",
			Summary: "Bash: go test ./config", Reason: "the command needs approval", Command: "go test ./config"})
	for i := range l.steps {
		if l.steps[i].child == "" {
			l.steps[i].ev.SessionID = goldenSession
		}
	}
	return l.steps
}

// TestGoldenSubagentFrame draws the nested timeline (the Agent call
// expanded: the child's steps under it) and the child's labelled request in
// the queue, at 160x40 in the stacked layout, and compares the frame with
// testdata/golden/subagent-160x40.txt (-update rewrites it).
func TestGoldenSubagentFrame(t *testing.T) {
	steps := goldenSubagentSteps(t)
	b := startBenchWith(t, 160, 40, Options{}, func(w *Workbench) {
		w.layout = LayoutStacked
		w.now = func() time.Time { return steps[1].ev.Timestamp.Add(5 * time.Second) }
	})
	b.w.pump.post(func() {
		w := b.w
		w.storeState, w.sessionID, w.liveID, w.running = "", goldenSession, goldenSession, true
		for _, s := range steps {
			if s.child != "" {
				w.applyChildEvent(w.key, s.child, s.ev)
			} else {
				w.applyEvent(w.key, s.ev)
			}
		}
		w.subs.expanded = map[string]bool{"child-1": true}
		w.focus, w.lastList = paneApprovals, paneApprovals
	})
	b.waitText("[Explore] Bash: go test ./config", "↳ Grep loadConfig")
	var got string
	b.onLoop(func() {
		b.w.app.ForceDraw()
		got = frame(b.sim)
	})
	b.stop()
	path := filepath.Join("testdata", "golden", "subagent-160x40.txt")
	if *updateGolden {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s", fmt.Sprintf("the frame differs from %s (-update rewrites it)\n got:\n%s\nwant:\n%s", path, got, want))
	}
	if !strings.Contains(got, "▾ [Explore]") {
		t.Errorf("the Agent call is not shown expanded:\n%s", got)
	}
}
