package agent

import (
	"context"
	"errors"
	"strings"
	"time"
)

// Remind queues text for the session's next model call, as Claude Code
// delivers a background task's result or a teammate's message: when a turn
// of the session is running, it is stored as a `<system-reminder>` user
// message before the turn's next model call; otherwise before the user
// message of the session's next turn (with the SessionStart hooks' context).
// Nothing is lost when the session never runs again in this process: the
// text then stays where its sender recorded it (the subagent.completed or
// team.message event). Safe for concurrent use; blank text is dropped.
func (a *Agent) Remind(sessionID, text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	a.mu.Lock()
	a.pending[sessionID] = append(a.pending[sessionID], text)
	a.mu.Unlock()
}

// deliverReminders stores what Remind queued for the session since the
// turn's last model call, before the next one (loop).
func (t *turn) deliverReminders(ctx context.Context) error {
	for _, c := range t.a.takePending(t.sess.ID) {
		if _, err := t.save(ctx, reminder(c)); err != nil {
			return err
		}
	}
	return nil
}

// HasReminders reports whether Remind queued text for the session that no
// model call has received yet.
func (a *Agent) HasReminders(sessionID string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.pending[sessionID]) > 0
}

// errNoReminders fails a TurnInput.Reminders turn with nothing queued.
var errNoReminders = errors.New("nothing arrived for the session since its last model call")

// startReminders starts a TurnInput.Reminders turn: the queued texts are
// its input, each stored as a `<system-reminder>` user message.
func (t *turn) startReminders(ctx context.Context) error {
	texts := t.a.takePending(t.sess.ID)
	if len(texts) == 0 {
		return errNoReminders
	}
	for _, c := range texts {
		if _, err := t.save(ctx, reminder(c)); err != nil {
			return err
		}
	}
	t.sess.Status = "running"
	t.sess.UpdatedAt = time.Now().UTC()
	return t.a.cfg.Store.PutSession(ctx, t.sess)
}
