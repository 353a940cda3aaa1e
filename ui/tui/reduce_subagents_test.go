package tui

import (
	"reflect"
	"testing"
	"time"

	"pincer/core/event"
)

// twoLogs builds the events of a parent session and its child, each
// numbered in its own log, in the order they are applied.
type twoLogs struct {
	t     *testing.T
	steps []logStep
	seq   map[string]uint64
}

type logStep struct {
	child string // "" for the parent's event, else the child session ID
	ev    event.Event
	// interrupt calls Model.Interrupt at this step instead of applying ev.
	interrupt bool
}

func (l *twoLogs) add(session, turn string, typ event.Type, payload any) *twoLogs {
	if l.seq == nil {
		l.seq = map[string]uint64{}
	}
	ev, err := event.New(typ, session, turn, payload)
	if err != nil {
		l.t.Fatal(err)
	}
	l.seq[session]++
	ev.Sequence = l.seq[session]
	ev.Timestamp = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).Add(time.Duration(len(l.steps)) * time.Second)
	child := ""
	if session != "p" {
		child = session
	}
	l.steps = append(l.steps, logStep{child: child, ev: ev})
	return l
}

func (l *twoLogs) interrupt() *twoLogs {
	l.steps = append(l.steps, logStep{interrupt: true})
	return l
}

func (l *twoLogs) apply() *Model {
	m := NewModel()
	for _, s := range l.steps {
		switch {
		case s.interrupt:
			m.Interrupt()
		case s.child != "":
			m.ApplyChild(s.child, s.ev)
		default:
			m.Apply(s.ev)
		}
	}
	return m
}

// queueOf is what the queue shows of each request: its label and request.
func queueOf(m *Model) []string {
	var out []string
	for _, a := range m.Approvals {
		out = append(out, queueText(a)+" #"+a.RequestID+" @"+a.SessionID)
	}
	return out
}

func TestSubagentRequestsInTheQueue(t *testing.T) {
	started := func(l *twoLogs, bg bool) *twoLogs {
		return l.add("p", "", event.SessionCreated, event.SessionCreatedData{Cwd: "/w"}).
			add("p", "t1", event.TurnStarted, event.TurnStartedData{Input: "look"}).
			add("p", "t1", event.ToolStarted, event.ToolStartedData{ToolCallID: "a1", Name: "Agent", Summary: "Agent: find it"}).
			add("p", "t1", event.SubagentStarted, event.SubagentStartedData{ToolCallID: "a1", ChildSessionID: "c1", AgentType: "Explore", Description: "find it", Background: bg})
	}
	ask := func(l *twoLogs) *twoLogs {
		return l.add("c1", "ct1", event.TurnStarted, event.TurnStartedData{Input: "find it"}).
			add("c1", "ct1", event.PermissionRequested, event.PermissionRequestedData{RequestID: "r9", ToolCallID: "b1", Name: "Bash", Summary: "Bash: make", Reason: "commands ask"})
	}
	asked := []string{"[Explore] Bash: make #r9 @c1"}
	cases := []struct {
		name string
		log  func(*twoLogs)
		want []string
	}{
		{"a running child's request is labelled in the parent's queue", func(l *twoLogs) { ask(started(l, false)) }, asked},
		{"answered in the child: gone", func(l *twoLogs) {
			ask(started(l, false)).add("c1", "ct1", event.PermissionResolved, event.PermissionResolvedData{RequestID: "r9", ToolCallID: "b1", Decision: "allow", Scope: "once", By: "user"})
		}, nil},
		{"the child's turn ends unanswered: gone", func(l *twoLogs) {
			ask(started(l, false)).add("c1", "ct1", event.TurnCancelled, event.TurnCancelledData{Reason: "cancelled"})
		}, nil},
		{"the subagent completed: gone", func(l *twoLogs) {
			ask(started(l, false)).add("p", "t1", event.SubagentCompleted, event.SubagentCompletedData{ToolCallID: "a1", ChildSessionID: "c1", Outcome: "cancelled"})
		}, nil},
		{"the child's log read before subagent.started", func(l *twoLogs) {
			l.add("p", "", event.SessionCreated, event.SessionCreatedData{Cwd: "/w"}).
				add("p", "t1", event.TurnStarted, event.TurnStartedData{Input: "look"})
			ask(l).add("p", "t1", event.SubagentStarted, event.SubagentStartedData{ToolCallID: "a1", ChildSessionID: "c1", AgentType: "Explore"})
		}, asked},
		{"a session that is no subagent: not in the queue", func(l *twoLogs) {
			l.add("p", "", event.SessionCreated, event.SessionCreatedData{Cwd: "/w"})
			ask(l)
		}, nil},
		{"a later parent turn keeps a background child's request", func(l *twoLogs) {
			ask(started(l, true)).add("p", "t1", event.TurnCompleted, event.TurnCompletedData{StopReason: "stop"}).
				add("p", "t2", event.TurnStarted, event.TurnStartedData{Input: "next"})
		}, asked},
		{"the parent's own request and the child's, in arrival order", func(l *twoLogs) {
			ask(started(l, true)).add("p", "t1", event.PermissionRequested, event.PermissionRequestedData{RequestID: "r1", ToolCallID: "e1", Name: "Edit", Summary: "Edit a.go"})
		}, []string{"[Explore] Bash: make #r9 @c1", "Edit a.go #r1 @"}},
		{"a child's request keeps its place as more events come", func(l *twoLogs) {
			started(l, true).add("p", "t1", event.PermissionRequested, event.PermissionRequestedData{RequestID: "r1", ToolCallID: "e1", Name: "Edit", Summary: "Edit a.go"})
			ask(l).add("p", "t1", event.PermissionRequested, event.PermissionRequestedData{RequestID: "r2", ToolCallID: "e2", Name: "Edit", Summary: "Edit b.go"}).
				add("c1", "ct1", event.UsageReported, event.UsageData{InputTokens: 5})
		}, []string{"Edit a.go #r1 @", "[Explore] Bash: make #r9 @c1", "Edit b.go #r2 @"}},
		{"a dead parent's children: orphaned, and stay out", func(l *twoLogs) {
			ask(started(l, false)).interrupt().
				add("c1", "ct1", event.PermissionRequested, event.PermissionRequestedData{RequestID: "r10", ToolCallID: "b2", Name: "Bash", Summary: "Bash: ls"})
		}, nil},
		{"a team member's next turn after its result: running again", func(l *twoLogs) {
			l.add("p", "", event.SessionCreated, event.SessionCreatedData{Cwd: "/w"}).
				add("p", "", event.SubagentStarted, event.SubagentStartedData{ChildSessionID: "c1", AgentType: "Explore", Team: "t", Member: "m1", Background: true}).
				add("c1", "ct0", event.TurnStarted, event.TurnStartedData{Input: "first"}).
				add("c1", "ct0", event.TurnCompleted, event.TurnCompletedData{StopReason: "stop"}).
				add("p", "", event.SubagentCompleted, event.SubagentCompletedData{ChildSessionID: "c1", Outcome: "completed", Background: true})
			ask(l)
		}, []string{"[m1] Bash: make #r9 @c1"}},
		{"a child's turn replayed after its completion stays done", func(l *twoLogs) {
			started(l, false)
			steps := len(l.steps)
			ask(l)
			childSteps := append([]logStep(nil), l.steps[steps:]...)
			l.steps = l.steps[:steps]
			l.add("p", "t1", event.SubagentCompleted, event.SubagentCompletedData{ToolCallID: "a1", ChildSessionID: "c1", Outcome: "completed"})
			l.steps = append(l.steps, childSteps...) // read later (expanded), older than the completion
		}, nil},
		{"a team member is labelled by its name", func(l *twoLogs) {
			l.add("p", "", event.SessionCreated, event.SessionCreatedData{Cwd: "/w"}).
				add("p", "", event.SubagentStarted, event.SubagentStartedData{ChildSessionID: "c1", AgentType: "general-purpose", Team: "t", Member: "reviewer", Background: true})
			ask(l)
		}, []string{"[reviewer] Bash: make #r9 @c1"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := &twoLogs{t: t}
			tc.log(l)
			m := l.apply()
			if got := queueOf(m); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("queue = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSubagentEntries(t *testing.T) {
	l := &twoLogs{t: t}
	l.add("p", "t1", event.TurnStarted, event.TurnStartedData{Input: "look"}).
		add("p", "t1", event.SubagentStarted, event.SubagentStartedData{ToolCallID: "a1", ChildSessionID: "c1", AgentType: "Explore", Description: "find it"}).
		add("p", "t1", event.SubagentStarted, event.SubagentStartedData{ToolCallID: "a1", ChildSessionID: "c1", AgentType: "Plan"}). // a duplicate: ignored
		add("c1", "ct1", event.TurnStarted, event.TurnStartedData{Input: "find it"}).
		add("c1", "ct1", event.UsageReported, event.UsageData{InputTokens: 10}).
		add("c1", "ct1", event.ToolStarted, event.ToolStartedData{ToolCallID: "g1", Name: "Grep", Summary: "Grep foo"})
	m := l.apply()
	s, ok := m.SubagentOfCall("a1")
	if !ok || s.AgentType != "Explore" || s.Description != "find it" || !s.Running() {
		t.Fatalf("SubagentOfCall = %+v, %v", s, ok)
	}
	c := m.Child("c1")
	if c == nil || c.Status.ModelCalls != 1 || len(c.Timeline) != 1 || c.Timeline[0].Status != ToolRunning {
		t.Fatalf("child model = %+v", c)
	}
	l.add("p", "t1", event.SubagentCompleted, event.SubagentCompletedData{ToolCallID: "a1", ChildSessionID: "c1", Outcome: "failed", Error: "budget", ModelCalls: 15, DurationMs: 2500})
	m = l.apply()
	s, _ = m.Subagent("c1")
	if s.Running() || s.Outcome != SubagentFailed || s.Error != "budget" || s.ModelCalls != 15 || s.Duration != 2500*time.Millisecond {
		t.Errorf("completed = %+v", s)
	}
	if len(m.Subagents()) != 1 {
		t.Errorf("Subagents = %d, want 1", len(m.Subagents()))
	}
}
