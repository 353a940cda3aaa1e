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
// session a conversation rewind started.
type RewindResult struct {
	Restored []string
	Branch   string
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
	id, err := ResolveSessionID(ctx, store, id)
	if err != nil {
		return res, err
	}
	sess, err := store.GetSession(ctx, id)
	if err != nil {
		return res, err
	}
	if l, held, err := store.GetLease(ctx, id); err != nil {
		return res, err
	} else if held {
		return res, fmt.Errorf("session %s is running (held by %s): rewind it when it is idle", id, l.Owner)
	}
	msgs, err := store.ListMessages(ctx, id)
	if err != nil {
		return res, err
	}
	turns := checkpoint.Turns(msgs)
	if o.Turn < 1 || o.Turn > len(turns) {
		return res, fmt.Errorf("session %s has no turn %d (it has %d)", id, o.Turn, len(turns))
	}
	if o.Conversation && !o.Code && o.Turn == 1 {
		return res, errors.New("rewinding the conversation to before turn 1 keeps nothing: start a new session instead (pincer run)")
	}
	if o.Code {
		if sess.BranchOf != "" && o.Turn < sess.BranchTurn {
			return res, fmt.Errorf("turn %d of %s was copied from session %s: rewind the code there", o.Turn, id, sess.BranchOf)
		}
		root := sess.Cwd
		rec, err := checkpoint.New(store, root, checkpoint.Options{Skip: func(rel string) (string, bool) {
			return permission.Protected(filepath.Join(root, filepath.FromSlash(rel)), []string{root})
		}})
		if err != nil {
			return res, err
		}
		defer rec.Close()
		cps, err := store.ListCheckpoints(ctx, id)
		if err != nil {
			return res, err
		}
		plan, err := rec.Plan(ctx, cps, turns, o.Turn)
		if err != nil {
			return res, err
		}
		if _, _, err := rec.Rewind(ctx, id, plan, o.Force); err != nil {
			return res, err
		}
		for _, rs := range plan {
			res.Restored = append(res.Restored, rs.Path)
		}
	}
	if o.Conversation && o.Turn > 1 { // before turn 1 a branch would be empty: the code only
		b, err := branchSession(ctx, store, sess, msgs, turns[o.Turn-1], o.Turn)
		if err != nil {
			return res, err
		}
		res.Branch = b.ID
	}
	data := event.SessionRewoundData{Turn: o.Turn, Code: o.Code, Conversation: o.Conversation,
		Files: res.Restored, Branch: res.Branch, Forced: o.Force}
	if _, err := event.NewLog(store).Emit(ctx, event.SessionRewound, id, "", data); err != nil {
		return res, err
	}
	if res.Branch != "" {
		if _, err := event.NewLog(store).Emit(ctx, event.SessionRewound, res.Branch, "", data); err != nil {
			return res, err
		}
	}
	return res, nil
}

// branchSession makes the branch of sess at turn (the TurnID turnID): a new
// session with a copy of sess's messages before the turn's first one.
func branchSession(ctx context.Context, store persist.Store, sess persist.Session, msgs []message.Message, turnID string, turn int) (persist.Session, error) {
	now := time.Now().UTC()
	var rnd [4]byte
	_, _ = rand.Read(rnd[:])
	b := sess
	b.ID = now.Format("20060102-150405") + "-" + hex.EncodeToString(rnd[:])
	b.Status, b.CreatedAt, b.UpdatedAt = "idle", now, now
	b.BranchOf, b.BranchTurn = sess.ID, turn
	b.ParentID, b.ParentToolCallID, b.AgentType = "", "", ""
	if err := store.PutSession(ctx, b); err != nil {
		return b, err
	}
	if _, err := event.NewLog(store).Emit(ctx, event.SessionCreated, b.ID, "", event.SessionCreatedData{Cwd: b.Cwd, Model: b.Model}); err != nil {
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
