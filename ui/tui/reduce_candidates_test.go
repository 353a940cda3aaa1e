package tui

import (
	"testing"

	"pincer/core/event"
)

// TestCandidateQueueReduces: a candidate proposed in a turn stays in the
// queue when its turn ends, when a later turn starts and when the log's
// open turn is interrupted (it waits in the store, not on a turn); a
// duplicate proposal is one row; its candidate.decided, whoever decided,
// takes it out into the history (accepted and edited, or rejected). Pure:
// events in, model out.
func TestCandidateQueueReduces(t *testing.T) {
	proposed := event.CandidateProposedData{ID: "c9", Kind: "memory", Op: "add", Type: "feedback", Name: "tabs",
		Content: "---\nname: tabs\n---\n\nTabs.\n", Target: "/d/memory/tabs.md", Scope: "project", Origin: "slash", Turn: 1}
	base := func(t *testing.T) *recorder {
		r := &recorder{t: t}
		return r.add(event.SessionCreated, "", event.SessionCreatedData{Cwd: "/w"}).
			add(event.TurnStarted, "t1", event.TurnStartedData{Input: "remember tabs"}).
			add(event.CandidateProposed, "t1", proposed).
			add(event.CandidateProposed, "t1", proposed)
	}
	for _, c := range []struct {
		name     string
		then     func(r *recorder)
		interrup bool
		queued   int
		outcome  string
		detail   string
	}{
		{"turn ends", func(r *recorder) { r.add(event.TurnCompleted, "t1", event.TurnCompletedData{StopReason: "end_turn"}) }, false, 1, OutcomePending, ""},
		{"turn fails", func(r *recorder) { r.add(event.TurnFailed, "t1", event.TurnFailedData{Reason: "internal"}) }, false, 1, OutcomePending, ""},
		{"later turn", func(r *recorder) { r.add(event.TurnStarted, "t2", event.TurnStartedData{Input: "next"}) }, false, 1, OutcomePending, ""},
		{"interrupted", func(r *recorder) {}, true, 1, OutcomePending, ""},
		{"accepted edited", func(r *recorder) {
			r.add(event.CandidateDecided, "t1", event.CandidateDecidedData{ID: "c9", Status: "accepted", Edited: true, By: "user", Applied: true})
		}, false, 0, OutcomeAllow, "edited"},
		{"rejected by cli", func(r *recorder) {
			r.add(event.CandidateDecided, "", event.CandidateDecidedData{ID: "c9", Status: "rejected", By: "cli"})
		}, false, 0, OutcomeDeny, ""},
		{"another candidate decided", func(r *recorder) {
			r.add(event.CandidateDecided, "", event.CandidateDecidedData{ID: "c8", Status: "rejected", By: "cli"})
		}, false, 1, OutcomePending, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := base(t)
			c.then(r)
			m := applyAll(r.evs)
			if c.interrup {
				m.Interrupt()
			}
			if len(m.Approvals) != c.queued {
				t.Fatalf("queue = %+v, want %d", m.Approvals, c.queued)
			}
			if c.queued == 1 {
				a := m.Approvals[0]
				if a.RequestID != "candidate:c9" || a.Candidate == nil || a.Candidate.Target != "/d/memory/tabs.md" ||
					a.Summary != "Memory: add feedback “tabs” → tabs.md" {
					t.Errorf("queued = %+v", a)
				}
			}
			if len(m.History) != 1 || m.History[0].Outcome != c.outcome || m.History[0].Detail != c.detail {
				t.Errorf("history = %+v, want one %q (%q)", m.History, c.outcome, c.detail)
			}
		})
	}
}
