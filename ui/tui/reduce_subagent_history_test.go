package tui

import (
	"reflect"
	"testing"

	"pincer/core/event"
)

// historyOf is what the approvals history holds: each request's label and
// outcome.
func historyOf(m *Model) []string {
	var out []string
	for _, r := range m.History {
		out = append(out, queueText(r.PendingApproval)+" "+r.Outcome)
	}
	return out
}

// TestSubagentRequestsStayInTheHistory (NU5): a subagent's decided request
// stays in the parent's approvals history with its outcome after the
// subagent ended, as the parent's own do ("(0 · 1 done)" counted only the
// parent's).
func TestSubagentRequestsStayInTheHistory(t *testing.T) {
	started := func(l *twoLogs) *twoLogs {
		return l.add("p", "", event.SessionCreated, event.SessionCreatedData{Cwd: "/w"}).
			add("p", "t1", event.TurnStarted, event.TurnStartedData{Input: "look"}).
			add("p", "t1", event.PermissionRequested, event.PermissionRequestedData{RequestID: "r1", ToolCallID: "e1", Name: "Edit", Summary: "Edit a.go"}).
			add("p", "t1", event.PermissionResolved, event.PermissionResolvedData{RequestID: "r1", ToolCallID: "e1", Decision: "allow", Scope: "once", By: "user"}).
			add("p", "t1", event.ToolStarted, event.ToolStartedData{ToolCallID: "a1", Name: "Agent", Summary: "Agent: find it"}).
			add("p", "t1", event.SubagentStarted, event.SubagentStartedData{ToolCallID: "a1", ChildSessionID: "c1", AgentType: "Explore", Description: "find it"}).
			add("c1", "ct1", event.TurnStarted, event.TurnStartedData{Input: "find it"}).
			add("c1", "ct1", event.PermissionRequested, event.PermissionRequestedData{RequestID: "r9", ToolCallID: "b1", Name: "Bash", Summary: "Bash: make"})
	}
	done := func(l *twoLogs) *twoLogs {
		return l.add("p", "t1", event.SubagentCompleted, event.SubagentCompletedData{ToolCallID: "a1", ChildSessionID: "c1", Outcome: "completed"})
	}
	cases := []struct {
		name string
		log  func(*twoLogs)
		want []string
	}{
		{"pending", func(l *twoLogs) { started(l) }, []string{"Edit a.go " + OutcomeAllow, "[Explore] Bash: make " + OutcomePending}},
		{"allowed, then the subagent ended", func(l *twoLogs) {
			done(started(l).add("c1", "ct1", event.PermissionResolved, event.PermissionResolvedData{RequestID: "r9", ToolCallID: "b1", Decision: "allow", Scope: "once", By: "user"}))
		}, []string{"Edit a.go " + OutcomeAllow, "[Explore] Bash: make " + OutcomeAllow}},
		{"denied, then the subagent ended", func(l *twoLogs) {
			done(started(l).add("c1", "ct1", event.PermissionResolved, event.PermissionResolvedData{RequestID: "r9", ToolCallID: "b1", Decision: "deny", Scope: "once", By: "user"}))
		}, []string{"Edit a.go " + OutcomeAllow, "[Explore] Bash: make " + OutcomeDeny}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := &twoLogs{t: t}
			tc.log(l)
			if got := historyOf(l.apply()); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("history = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSubagentRowDropsEscapes (NU10): control sequences in an Agent call's
// description, type or error leave nothing on its row ("[0m" was left).
func TestSubagentRowDropsEscapes(t *testing.T) {
	for _, tc := range []struct {
		s    SubagentEntry
		want string
	}{
		{SubagentEntry{AgentType: "Explore", Description: "fix \x1b[31mred\x1b[0m bits"}, "▸ [Explore] fix red bits · starting · 0 model calls"},
		{SubagentEntry{AgentType: "Ex\x1b]0;t\x07plore", Description: "a\x1b[2Jb"}, "▸ [Explore] ab · starting · 0 model calls"},
		{SubagentEntry{AgentType: "Plan", Description: "d", Outcome: SubagentFailed, Error: "bad \x1b[1mthing\x1b[0m"}, "▸ [Plan] d · failed: bad thing"},
	} {
		if got := subagentRowText(subagentRowParts(tc.s, nil, false)); got != tc.want {
			t.Errorf("row = %q, want %q", got, tc.want)
		}
	}
}
