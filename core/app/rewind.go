package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"pincer/core/checkpoint"
	"pincer/core/event"
	"pincer/core/message"
	"pincer/core/permission"
	"pincer/persist"
)

// SessionDiff is the unified diff (git style, `git apply` takes it) of what
// session id's tool calls changed in its workspace, Bash included: of turn
// (from 1), or of the whole session (turn 0). id may be a unique prefix.
func SessionDiff(ctx context.Context, store persist.Store, id string, turn int) (string, error) {
	return SessionDiffOf(ctx, store, id, DiffSpan{Turn: turn})
}

// RewindOptions is what `pincer rewind` does: to before Turn (from 1), the
// code (the workspace files), the conversation (a branch session), or both;
// Force overwrites files changed outside pincer since the checkpoint.
type RewindOptions struct {
	Turn               int
	Code, Conversation bool
	Force              bool
}

// RewindResult is what a rewind did: the files it restored, the branch
// session a conversation rewind started, the pending skill candidates a code
// rewind withdrew (their IDs: learned from a turn it undid, rejected).
type RewindResult struct {
	Restored  []string
	Branch    string
	Withdrawn []string
}

// Rewind rewinds session id to before a turn, as Claude Code's /rewind:
// code restores every file the turn and those after it changed to its
// version before (byte for byte, mode too, through os.Root), refusing with
// the list of files changed outside pincer since unless Force; conversation
// starts a new session, a branch, holding a copy of the turns before it (the
// transcript is never rewritten: the session stays as it was, listed). A
// session another process runs (a live lease) is refused. The rewind is a
// session.rewound event in the session (and the branch).
func Rewind(ctx context.Context, store persist.Store, id string, o RewindOptions) (RewindResult, error) {
	var res RewindResult
	t, err := rewindTarget(ctx, store, id, o.Turn, o.Code, o.Conversation)
	if err != nil {
		return res, err
	}
	if o.Code {
		rec, err := rewindRecorder(store, t.sess, nil)
		if err != nil {
			return res, err
		}
		defer rec.Close()
		plan, err := t.plan(ctx, store, rec)
		if err != nil {
			return res, err
		}
		if err := restore(ctx, event.NewLog(store), rec, t.sess.ID, "", plan, o.Force); err != nil {
			return res, err
		}
		res.Restored = restorePaths(plan)
		res.Withdrawn = withdrawRewoundSkills(ctx, store, t.sess, t.turns[o.Turn-1:])
	}
	if o.Conversation && o.Turn > 1 { // before turn 1 a branch would be empty: the code only
		b, err := branchSession(ctx, store, event.NewLog(store), t.sess, t.msgs, t.turns[o.Turn-1], o.Turn)
		if err != nil {
			return res, err
		}
		res.Branch = b.ID
	}
	data := event.SessionRewoundData{Turn: o.Turn, Code: o.Code, Conversation: o.Conversation,
		Files: res.Restored, Branch: res.Branch, Forced: o.Force}
	return res, emitRewound(ctx, event.NewLog(store), t.sess.ID, data)
}

// rewindPlan is a session about to be rewound to before turn: resolved
// (a unique prefix too), not run by a live lease, with the turn.
type rewindPlan struct {
	sess  persist.Session
	msgs  []message.Message
	turns []string
	turn  int
}

// rewindTarget checks a rewind of session id to before turn (code and/or
// conversation) and reads what it needs: refused for a running session (a
// live lease), a turn it lacks, a conversation rewind to before turn 1
// alone, and a code rewind of a branch's copied turns.
func rewindTarget(ctx context.Context, store persist.Store, id string, turn int, code, conversation bool) (rewindPlan, error) {
	var t rewindPlan
	id, err := ResolveSessionID(ctx, store, id)
	if err != nil {
		return t, err
	}
	if t.sess, err = store.GetSession(ctx, id); err != nil {
		return t, err
	}
	if l, held, err := store.GetLease(ctx, id); err != nil {
		return t, err
	} else if held {
		return t, fmt.Errorf("session %s is running (held by %s): rewind it when it is idle", id, l.Owner)
	}
	if t.msgs, err = store.ListMessages(ctx, id); err != nil {
		return t, err
	}
	t.turns, t.turn = checkpoint.Turns(t.msgs), turn
	switch {
	case turn < 1 || turn > len(t.turns):
		return t, fmt.Errorf("session %s has no turn %d (it has %d)", id, turn, len(t.turns))
	case conversation && !code && turn == 1:
		return t, errors.New("rewinding the conversation to before turn 1 keeps nothing: start a new session instead (pincer run)")
	case code && t.sess.BranchOf != "" && turn < t.sess.BranchTurn:
		return t, fmt.Errorf("turn %d of %s was copied from session %s: rewind the code there", turn, id, t.sess.BranchOf)
	}
	return t, nil
}

// plan is the code rewind of t through rec (checkpoint.Recorder.Plan over
// the session's checkpoints now).
func (t rewindPlan) plan(ctx context.Context, store persist.Store, rec *checkpoint.Recorder) ([]checkpoint.Restore, error) {
	cps, err := store.ListCheckpoints(ctx, t.sess.ID)
	if err != nil {
		return nil, err
	}
	return rec.Plan(ctx, cps, t.turns, t.turn)
}

// rewindRecorder is a Recorder of sess's workspace for a rewind: live, the
// one the agent records through (its baseline then follows the restores),
// else a new one whose Skip protects what core/permission protects, which
// the caller closes (never live).
func rewindRecorder(store persist.Store, sess persist.Session, live *checkpoint.Recorder) (*checkpoint.Recorder, error) {
	if live != nil && live.Root() == filepath.Clean(sess.Cwd) {
		return live, nil
	}
	root := sess.Cwd
	return checkpoint.New(store, root, checkpoint.Options{Skip: func(rel string) (string, bool) {
		return permission.Protected(filepath.Join(root, filepath.FromSlash(rel)), []string{root})
	}})
}

// restore applies plan through rec as a rewind of session id
// (Recorder.Rewind; force overwrites conflicts) and, when that changed the
// workspace, records its checkpoint as a checkpoint.recorded event of call
// callID (the Rewind request's; "" for `pincer rewind`) in log: a view
// folding the log counts the restore from then on (the time travel's
// start-to-step diff, app.DiffSpan.Through), as `pincer sessions diff` does.
func restore(ctx context.Context, log *event.Log, rec *checkpoint.Recorder, id, callID string, plan []checkpoint.Restore, force bool) error {
	c, changed, err := rec.Rewind(ctx, id, plan, force)
	if err != nil || !changed {
		return err
	}
	_, err = log.Emit(context.WithoutCancel(ctx), event.CheckpointRecorded, id, "", checkpoint.RecordedData(c, callID))
	return err
}

// restorePaths are the paths of plan.
func restorePaths(plan []checkpoint.Restore) []string {
	var out []string
	for _, rs := range plan {
		out = append(out, rs.Path)
	}
	return out
}

// emitRewound records data as a session.rewound event of session id, and of
// the branch it started, if any.
func emitRewound(ctx context.Context, log *event.Log, id string, data event.SessionRewoundData) error {
	if _, err := log.Emit(ctx, event.SessionRewound, id, "", data); err != nil {
		return err
	}
	if data.Branch != "" {
		if _, err := log.Emit(ctx, event.SessionRewound, data.Branch, "", data); err != nil {
			return err
		}
	}
	return nil
}

// branchSession makes the branch of sess at turn (the TurnID turnID): a new
// session with a copy of sess's messages before the turn's first one, and a
// log that starts with its session.created event (naming the origin) and
// the copies of the origin's events of those turns (inheritedEvents), so
// every view of the branch shows the conversation it continues.
func branchSession(ctx context.Context, store persist.Store, log *event.Log, sess persist.Session, msgs []message.Message, turnID string, turn int) (persist.Session, error) {
	now := time.Now().UTC()
	var rnd [4]byte
	_, _ = rand.Read(rnd[:])
	b := sess
	b.ID = now.Format("20060102-150405") + "-" + hex.EncodeToString(rnd[:])
	b.Status, b.CreatedAt, b.UpdatedAt = "idle", now, now
	b.BranchOf, b.BranchTurn = sess.ID, turn
	b.ParentID, b.ParentToolCallID, b.AgentType = "", "", ""
	inherited, err := inheritedEvents(ctx, log, sess.ID, checkpoint.Turns(msgs)[:turn-1])
	if err != nil {
		return b, err
	}
	if err := store.PutSession(ctx, b); err != nil {
		return b, err
	}
	created := event.SessionCreatedData{Cwd: b.Cwd, Model: b.Model, BranchOf: sess.ID, BranchTurn: turn, Inherited: len(inherited)}
	if _, err := log.Emit(ctx, event.SessionCreated, b.ID, "", created); err != nil {
		return b, err
	}
	if err := inheritEvents(ctx, log, b.ID, inherited); err != nil {
		return b, err
	}
	for _, m := range msgs {
		if m.TurnID == turnID {
			break
		}
		m.SessionID, m.Seq = b.ID, 0
		if _, err := store.AppendMessage(ctx, m); err != nil {
			return b, errors.Join(fmt.Errorf("branch %s: copying the transcript", b.ID), err)
		}
	}
	return b, nil
}
