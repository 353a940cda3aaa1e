package tui

import (
	"time"

	"pincer/core/event"
)

// Subagents in the model. The parent's log says that a tool call runs a
// subagent (subagent.started: its child session, type and description) and
// how it ended (subagent.completed); the child's steps are in the child
// session's own log, which the workbench follows while the subagent runs
// (children.go) and folds with ApplyChild into a Model of its own, kept here.
// A running child's pending permission requests are mirrored into the
// parent's Approvals, labelled with the subagent (PendingApproval.Agent,
// SessionID), so they are shown, counted and answered in the one queue (as
// Claude Code's subagent asks reach the main prompt). Everything here is a
// pure fold of the two logs, as Apply is.

// Subagent outcomes, as subagent.completed names them ("" while it runs).
const (
	SubagentRunning   = ""
	SubagentCompleted = "completed"
	SubagentFailed    = "failed"
	SubagentCancelled = "cancelled"
)

// SubagentEntry is one subagent the session started, as the timeline shows
// it beside its Agent call.
type SubagentEntry struct {
	ToolCallID     string // the parent's Agent call ("" for a team member)
	ChildSessionID string
	AgentType      string
	Description    string
	Background     bool
	Branch         string // the worktree's branch of an isolation "worktree" run
	Team, Member   string
	// Outcome is one of the Subagent* constants; Error the failure's reason.
	Outcome, Error string
	// ModelCalls, tokens and Duration as subagent.completed reports them
	// (while it runs, the child model's own counts are the live ones).
	ModelCalls                int
	InputTokens, OutputTokens int64
	Duration                  time.Duration
	DiffStat                  string
	// Started is subagent.started's timestamp.
	Started time.Time
	// Ended is the timestamp of its latest subagent.completed: a team
	// member's child runs a turn again for each message delivered to it
	// idle, which a turn.started of the child after Ended shows.
	Ended time.Time
	// Orphaned: it was running when the parent's turn was found left open
	// by a dead process (Interrupt): nobody will act on its requests.
	Orphaned bool
}

// Running reports whether the subagent has not ended yet.
func (s SubagentEntry) Running() bool { return s.Outcome == SubagentRunning }

// subagentState is the Model's part for subagents.
type subagentState struct {
	list     []SubagentEntry
	byChild  map[string]int    // child session ID -> index in list
	byCall   map[string]int    // Agent tool call ID -> index in list
	children map[string]*Model // child session ID -> its model (once followed)
}

// Subagents returns the session's subagents, in the order they started. The
// slice is the model's: read it, don't keep it.
func (m *Model) Subagents() []SubagentEntry { return m.subs.list }

// Subagent returns the subagent of a child session.
func (m *Model) Subagent(childSessionID string) (SubagentEntry, bool) {
	i, ok := m.subs.byChild[childSessionID]
	if !ok {
		return SubagentEntry{}, false
	}
	return m.subs.list[i], true
}

// SubagentOfCall returns the subagent an Agent tool call started.
func (m *Model) SubagentOfCall(toolCallID string) (SubagentEntry, bool) {
	i, ok := m.subs.byCall[toolCallID]
	if !ok || toolCallID == "" {
		return SubagentEntry{}, false
	}
	return m.subs.list[i], true
}

// Child returns the model of a child session the workbench followed (nil:
// not followed yet).
func (m *Model) Child(childSessionID string) *Model { return m.subs.children[childSessionID] }

// subagentStarted records a subagent.started of the parent's log.
func (m *Model) subagentStarted(ev event.Event, d event.SubagentStartedData) {
	if m.subs.byChild == nil {
		m.subs.byChild, m.subs.byCall, m.subs.children = map[string]int{}, map[string]int{}, map[string]*Model{}
	}
	if _, dup := m.subs.byChild[d.ChildSessionID]; dup || d.ChildSessionID == "" {
		return
	}
	m.subs.byChild[d.ChildSessionID] = len(m.subs.list)
	if d.ToolCallID != "" {
		m.subs.byCall[d.ToolCallID] = len(m.subs.list)
	}
	m.subs.list = append(m.subs.list, SubagentEntry{ToolCallID: d.ToolCallID, ChildSessionID: d.ChildSessionID,
		AgentType: d.AgentType, Description: d.Description, Background: d.Background, Branch: d.Branch,
		Team: d.Team, Member: d.Member, Started: ev.Timestamp})
	if c := m.subs.children[d.ChildSessionID]; c != nil {
		m.mirrorChild(d.ChildSessionID) // its log was read first
	}
}

// subagentCompleted records a subagent.completed of the parent's log: the
// child's requests leave the queue (nobody waits for them any more).
func (m *Model) subagentCompleted(ev event.Event, d event.SubagentCompletedData) {
	i, ok := m.subs.byChild[d.ChildSessionID]
	if !ok {
		return
	}
	s := &m.subs.list[i]
	s.Outcome, s.Error, s.Ended = d.Outcome, d.Error, ev.Timestamp
	if s.Outcome == SubagentRunning {
		s.Outcome = SubagentCompleted
	}
	s.ModelCalls, s.InputTokens, s.OutputTokens = d.ModelCalls, d.InputTokens, d.OutputTokens
	s.Duration, s.DiffStat = time.Duration(d.DurationMs)*time.Millisecond, d.DiffStat
	if d.Branch != "" {
		s.Branch = d.Branch
	}
	m.mirrorChild(d.ChildSessionID)
}

// ApplyChild folds one event of a child session's log into that child's
// model (created on its first event) and mirrors the child's pending
// requests into the parent's queue. Like Apply it is pure and idempotent
// per sequence. Events of a session that is no subagent of this one yet are
// kept too: the parent's subagent.started may be read after the child's
// first events.
func (m *Model) ApplyChild(childSessionID string, ev event.Event) {
	if m.subs.children == nil {
		m.subs.byChild, m.subs.byCall, m.subs.children = map[string]int{}, map[string]int{}, map[string]*Model{}
	}
	c := m.subs.children[childSessionID]
	if c == nil {
		c = NewModel()
		m.subs.children[childSessionID] = c
	}
	c.Apply(ev)
	c.TakeTouched() // the child's transcript is not this view's
	if i, ok := m.subs.byChild[childSessionID]; ok && ev.Type == event.TurnStarted {
		if s := &m.subs.list[i]; !s.Running() && !s.Orphaned && ev.Timestamp.After(s.Ended) {
			s.Outcome, s.Error = SubagentRunning, "" // another turn of it (a message to a team member)
		}
	}
	m.mirrorChild(childSessionID)
}

// mirrorChild brings the parent's copies of a child's pending requests in
// line with the child's queue as it is now, labelled with the subagent's
// type: a request still pending keeps its place, one answered or dropped
// leaves, a new one joins at the end. None is kept unless the subagent is
// known, still runs and its parent's process lives.
func (m *Model) mirrorChild(childSessionID string) {
	s, known := m.Subagent(childSessionID)
	c := m.subs.children[childSessionID]
	if known && c != nil {
		m.mirrorChildHistory(childSessionID, s, c)
	}
	live := known && s.Running() && !s.Orphaned && c != nil
	pending := map[string]bool{}
	if live {
		for _, a := range c.Approvals {
			pending[a.RequestID] = true
		}
	}
	kept, have := m.Approvals[:0:0], map[string]bool{}
	for _, a := range m.Approvals {
		if a.SessionID != childSessionID || pending[a.RequestID] {
			kept = append(kept, a)
			have[a.RequestID] = a.SessionID == childSessionID
		}
	}
	m.Approvals = kept
	if !live {
		return
	}
	for _, a := range c.Approvals {
		if !have[a.RequestID] {
			a.SessionID, a.Agent = childSessionID, subagentLabel(s)
			m.Approvals = append(m.Approvals, a)
		}
	}
}

// mirrorChildHistory brings the parent's approvals history in line with a
// child's (NU5): each of the child's requests is listed there, labelled with
// the subagent, with its outcome once decided — and stays after the
// subagent ended, as the session's own decided requests do.
func (m *Model) mirrorChildHistory(childSessionID string, s SubagentEntry, c *Model) {
	for _, r := range c.History {
		r.SessionID, r.Agent = childSessionID, subagentLabel(s)
		if p := m.record(r.RequestID); p != nil {
			*p = r
			continue
		}
		m.historyIndex[r.RequestID] = len(m.History)
		m.History = append(m.History, r)
	}
}

// orphanChildren drops every child's request from the queue: the parent's
// process is gone (Interrupt), so nobody will act on an answer.
func (m *Model) orphanChildren() {
	for i := range m.subs.list {
		if s := &m.subs.list[i]; s.Running() && !s.Orphaned {
			s.Orphaned = true
			m.mirrorChild(s.ChildSessionID)
		}
	}
}

// subagentLabel is how the queue and the timeline name a subagent: its
// type, or a team member's name ("Explore", "reviewer").
func subagentLabel(s SubagentEntry) string {
	switch {
	case s.Member != "":
		return s.Member
	case s.AgentType != "":
		return s.AgentType
	}
	return "subagent"
}
