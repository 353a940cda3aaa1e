package agent

import (
	"context"
	"strings"
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
