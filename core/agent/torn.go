package agent

import (
	"context"
	"errors"
	"fmt"

	"pincer/persist"
)

// tornNotice is the warning a turn shows when the store skipped records of
// its session's transcript it could not read (a record torn by a crash
// mid-write, or damaged on disk): the rest of the transcript is kept and the
// turn goes on (as Claude Code's --continue does with a torn JSONL line), but
// the person is told once per process and session that something is missing.
func tornNotice(err error) (string, bool) {
	var ce *persist.CorruptError
	if !errors.As(err, &ce) || ce.Count <= 0 {
		return "", false
	}
	return fmt.Sprintf("%d unreadable %s record(s) of this session were skipped (torn by a crash or damaged on disk); the rest of the transcript is kept", ce.Count, ce.Kind), true
}

// warnTorn emits tornNotice's warning for the turn's session the first time
// this Agent meets the session's skipped records.
func (t *turn) warnTorn(ctx context.Context, err error) {
	msg, ok := tornNotice(err)
	if !ok {
		return
	}
	t.a.mu.Lock()
	if t.a.tornWarned == nil {
		t.a.tornWarned = map[string]bool{}
	}
	seen := t.a.tornWarned[t.sess.ID]
	t.a.tornWarned[t.sess.ID] = true
	t.a.mu.Unlock()
	if !seen {
		t.notice(ctx, "warning", "torn_record", msg)
	}
}
