package checkpoint

import (
	"context"
	"slices"
	"strings"
	"time"

	"pincer/persist"
)

// RestoreTool is the Tool of the checkpoint a rewind records: the rewind's
// own change to the workspace (it belongs to no turn, TurnID empty), so a
// later Plan expects the files as the rewind left them, not as the turns did.
const RestoreTool = "rewind"

// Rewind applies plan (as Apply, refusing conflicts unless force) and
// records what it changed as a RestoreTool checkpoint of sessionID: each
// restored file's version before the rewind (read and stored now, so a
// forced overwrite is recorded too) and after it (the plan's To). Without
// that record a second rewind of the session would see the first one's
// restores as changes made outside pincer. changed is false when the
// workspace already was as the plan restores it (nothing is recorded).
func (r *Recorder) Rewind(ctx context.Context, sessionID string, plan []Restore, force bool) (c persist.Checkpoint, changed bool, err error) {
	c = persist.Checkpoint{SessionID: sessionID, Tool: RestoreTool}
	if cf := Conflicts(plan); len(cf) > 0 && !force {
		return c, false, r.Apply(ctx, plan, force) // the refusal, with the list
	}
	before := make(map[string]persist.FileVersion, len(plan))
	for _, rs := range plan {
		v, _, err := r.version(ctx, rs.Path)
		if err != nil {
			v = rs.Expected // not a regular file now: the rewind replaces it
		}
		before[rs.Path] = v
	}
	err = r.Apply(ctx, plan, force)
	r.rebase(ctx, plan) // what was restored before a failure too
	if err != nil {
		return c, false, err
	}
	for _, rs := range plan {
		if !sameVersion(before[rs.Path], rs.To) {
			c.Files = append(c.Files, persist.CheckpointFile{Path: rs.Path, Before: before[rs.Path], After: rs.To})
		}
	}
	if len(c.Files) == 0 {
		return c, false, nil
	}
	slices.SortFunc(c.Files, func(a, b persist.CheckpointFile) int { return strings.Compare(a.Path, b.Path) })
	stored, err := r.store.AppendCheckpoint(ctx, c)
	if err != nil {
		return c, false, err
	}
	return stored, true, nil
}

// rebase brings the baseline (a command's scan compares against it) up to
// the files plan restored, so that the next Bash call's scan does not take
// the rewind's restores for changes the command made. Without a baseline
// (no scan yet) there is nothing to keep up.
func (r *Recorder) rebase(ctx context.Context, plan []Restore) {
	r.mu.Lock()
	none := r.base == nil
	r.mu.Unlock()
	if none {
		return
	}
	for _, rs := range plan {
		at := time.Now().UnixNano()
		v, st, err := r.version(ctx, rs.Path)
		r.mu.Lock()
		switch {
		case err != nil || v.Absent:
			r.delBase(rs.Path)
		default:
			r.setBase(rs.Path, tracked{st: st, v: v, at: at})
		}
		r.mu.Unlock()
	}
}
