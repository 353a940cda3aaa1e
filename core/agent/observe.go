package agent

import (
	"context"

	"pincer/core/message"
	"pincer/core/provider"
)

// TurnObserver looks at a turn that completed, to propose something from it
// (a learned skill, a memory): it runs inside the turn, after the query loop
// ended without error and before turn.completed, so what it records carries
// the turn's ID and `pincer run` sees it when the turn returns. It must not
// change the transcript; its failures are its own (a notice at most) and
// never fail the turn. ctx is the turn's: the person's cancel ends it.
type TurnObserver interface {
	ObserveTurn(ctx context.Context, t CompletedTurn)
}

// CompletedTurn is what a TurnObserver gets of a completed turn.
type CompletedTurn struct {
	SessionID, TurnID string
	// Number is the turn's place in the session's transcript, from 1: the
	// distinct turns of its stored messages, this one last (as `pincer
	// rewind` numbers them: checkpoint.Turns).
	Number int
	// ParentID is the session whose subagent this session is ("" for a
	// session a person or a script started).
	ParentID string
	// Input is the line as sent ("/y src/a.go" for an invocation), Expanded
	// the user message the model got (the same for a plain prompt).
	Input, Expanded string
	// Messages are the turn's stored messages, in order: its user message,
	// the assistant replies and tool results (not the system message).
	Messages []message.Message
	// FinalText is the turn's last assistant text.
	FinalText string
	// Ask makes one model call of its own with no tools (a side request like
	// compaction's summary): system and user as the two messages, through the
	// session's provider and the turn's model; its usage is reported as a
	// usage event of the turn. It returns the reply's text; an error or an
	// empty reply is an error.
	Ask func(ctx context.Context, system, user string) (string, error)
	// Notice shows the person a line about what the observer did (a notice
	// event of the turn, source e.g. "skills").
	Notice func(level, source, msg string)
}

// observe runs the agent's observers on the turn that just completed.
func (t *turn) observe(ctx, bg context.Context) {
	if len(t.a.cfg.Observers) == 0 {
		return
	}
	ct := CompletedTurn{SessionID: t.sess.ID, TurnID: t.id, ParentID: t.sess.ParentID,
		Input: t.typed, Expanded: t.input, FinalText: t.finalText,
		Ask: func(ctx context.Context, system, user string) (string, error) {
			return t.sideCall(ctx, bg, system, user)
		},
		Notice: func(level, source, msg string) { t.notice(bg, level, source, msg) }}
	turns := map[string]bool{}
	for _, m := range t.msgs {
		if m.TurnID != "" {
			turns[m.TurnID] = true
		}
		if m.TurnID == t.id && m.Role != message.RoleSystem {
			ct.Messages = append(ct.Messages, m)
		}
	}
	ct.Number = len(turns)
	if ct.Expanded == "" {
		for _, m := range ct.Messages {
			if m.Role == message.RoleUser {
				ct.Expanded = m.Text()
				break
			}
		}
	}
	for _, o := range t.a.cfg.Observers {
		if ctx.Err() != nil {
			return
		}
		o.ObserveTurn(ctx, ct)
	}
}

// sideCall is CompletedTurn.Ask: one tool-less model call on the turn's model.
func (t *turn) sideCall(ctx, bg context.Context, system, user string) (string, error) {
	p := t.a.currentProvider()
	if p == nil {
		return "", ErrNoProvider
	}
	req := provider.Request{Model: t.modelID(), MaxTokens: t.a.cfg.MaxTokens, Messages: []message.Message{
		message.NewText(message.RoleSystem, system), message.NewText(message.RoleUser, user)}}
	return t.sideText(ctx, bg, p, req, "reply")
}
