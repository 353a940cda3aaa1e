package app

import (
	"context"
	"fmt"

	"pincer/core/event"
)

// notInherited are the event types of an origin's turns a branch does not
// copy: what belongs to the origin session itself rather than to its
// conversation — its spending (usage: the branch's cost is its own), its
// checkpoints (their Seq name the origin's; the branch's diff of the copied
// turns points there), its memory and skill candidates, its background
// shells (gone with the process that ran them) and answers given to it from
// another workbench.
var notInherited = map[event.Type]bool{
	event.UsageReported: true, event.CheckpointRecorded: true,
	event.CandidateProposed: true, event.CandidateDecided: true,
	event.ShellStarted: true, event.ShellExited: true, event.PermissionAnswered: true,
}

// inheritedEvents are the events of origin's log a branch before the turn
// after turns carries (turns: the TurnIDs of the turns it keeps), in order:
// those of those turns, less the notInherited types and a subagent.started
// no copied subagent.completed answers (a branch must not close or wait for
// the origin's children). The view of a branch is then its origin's up to
// the branch point, drawn by the one reducer from the branch's own log.
func inheritedEvents(ctx context.Context, log *event.Log, origin string, turns []string) ([]event.Event, error) {
	keep := map[string]bool{}
	for _, t := range turns {
		keep[t] = true
	}
	evs, err := log.Read(ctx, origin, 0, 0)
	if err != nil {
		return nil, fmt.Errorf("branch of %s: reading its events: %w", origin, err)
	}
	var out []event.Event
	answered := map[string]bool{}
	for _, ev := range evs {
		if ev.TurnID == "" || !keep[ev.TurnID] || notInherited[ev.Type] {
			continue
		}
		if ev.Type == event.SubagentCompleted {
			var d event.SubagentCompletedData
			if ev.Decode(&d) == nil {
				answered[d.ChildSessionID] = true
			}
		}
		out = append(out, ev)
	}
	kept := out[:0]
	for _, ev := range out {
		var d event.SubagentStartedData
		if ev.Type == event.SubagentStarted && (ev.Decode(&d) != nil || !answered[d.ChildSessionID]) {
			continue
		}
		kept = append(kept, ev)
	}
	return kept, nil
}

// inheritEvents appends evs (inheritedEvents) to branch's log, in order,
// keeping their turn IDs, payloads and timestamps; they follow the branch's
// session.created, which counts them (SessionCreatedData.Inherited).
func inheritEvents(ctx context.Context, log *event.Log, branch string, evs []event.Event) error {
	for _, ev := range evs {
		ev.SessionID, ev.Sequence = branch, 0
		if _, err := log.Copy(ctx, ev); err != nil {
			return fmt.Errorf("branch %s: copying the origin's events: %w", branch, err)
		}
	}
	return nil
}
