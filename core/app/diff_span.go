package app

import (
	"context"
	"fmt"

	"pincer/core/checkpoint"
	"pincer/persist"
)

// DiffSpan selects which of a session's checkpoints a diff covers; the zero
// span is the whole session. The fields narrow together: Turn (from 1, as
// `pincer sessions diff --turn` counts) keeps that turn's checkpoints,
// TurnID those of the turn of that ID (the events' TurnID), ToolCallID one
// call's, Through those numbered 1..Through (the checkpoint
// Seq a checkpoint.recorded event names: the workspace as it was once that
// event was logged, the time travel's "start to this step").
type DiffSpan struct {
	Turn       int
	TurnID     string
	ToolCallID string
	Through    uint64
}

// SessionDiffOf is the unified diff (git style, `git apply` takes it) of
// what session id's tool calls in span changed in its workspace, Bash
// included. id may be a unique prefix. The one implementation behind
// `pincer sessions diff` and the workbench's diffs of past sessions; an
// error names a turn the session does not have.
func SessionDiffOf(ctx context.Context, store persist.Store, id string, span DiffSpan) (string, error) {
	id, err := ResolveSessionID(ctx, store, id)
	if err != nil {
		return "", err
	}
	cps, err := store.ListCheckpoints(ctx, id)
	if err != nil {
		return "", err
	}
	note := ""
	if sess, err := store.GetSession(ctx, id); err == nil && sess.BranchOf != "" && sess.BranchTurn > 1 && span.Turn < sess.BranchTurn {
		// A branch's copied turns made their changes in the origin: a "#"
		// line, which git apply skips as text between patches.
		note = fmt.Sprintf("# turns 1-%d are copied from session %s; see its diff: pincer sessions diff %s\n",
			sess.BranchTurn-1, sess.BranchOf, sess.BranchOf)
	}
	if span.Turn != 0 {
		msgs, err := store.ListMessages(ctx, id)
		if err != nil {
			return "", err
		}
		turns := checkpoint.Turns(msgs)
		if span.Turn < 1 || span.Turn > len(turns) {
			return "", fmt.Errorf("session %s has no turn %d (it has %d)", id, span.Turn, len(turns))
		}
		cps = checkpoint.OfTurns(cps, turns[span.Turn-1])
	}
	cps = narrow(cps, span)
	d, err := checkpoint.Diff(ctx, store, checkpoint.Combine(cps))
	return note + d, err
}

// narrow keeps the checkpoints of cps (in order) of span's turn ID and
// call, at or below its Through.
func narrow(cps []persist.Checkpoint, span DiffSpan) []persist.Checkpoint {
	if span.TurnID == "" && span.ToolCallID == "" && span.Through == 0 {
		return cps
	}
	var out []persist.Checkpoint
	for _, c := range cps {
		if (span.TurnID != "" && c.TurnID != span.TurnID) || (span.ToolCallID != "" && c.ToolCallID != span.ToolCallID) {
			continue
		}
		if span.Through != 0 && c.Seq > span.Through {
			continue
		}
		out = append(out, c)
	}
	return out
}
