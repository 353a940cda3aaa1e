package app

import (
	"context"

	"pincer/core/memory"
	"pincer/persist"
)

// ErrCandidateDecided is DecideCandidate's error for a candidate decided
// before (persist.ErrDecided: by another window, `pincer memory approve`):
// nothing changed.
var ErrCandidateDecided = persist.ErrDecided

// EditMemory is a person's edit of memory e (as Memories listed it) to text
// in /memory: proposed as an update candidate of sessionID and accepted with
// text in the same step (memory.Manager's one writer and its audit trail),
// so the file's history holds the edit like any other change. text is a
// new body, or a whole file whose frontmatter keeps e's name; an edit the
// Manager refuses is rejected at once (nothing left pending).
func (b *Backend) EditMemory(ctx context.Context, sessionID string, e memory.Entry, text string) (memory.Candidate, error) {
	if b.Memory == nil {
		return memory.Candidate{}, ErrNoMemory
	}
	c, err := b.Memory.Propose(ctx, memory.Proposal{Kind: memory.KindMemory, Op: memory.OpUpdate, Scope: e.Scope,
		Type: e.File.Type, Name: e.File.Name, Description: e.File.Description, Body: e.File.Body,
		SessionID: sessionID, Origin: memory.OriginSlash})
	if err != nil {
		return c, err
	}
	done, err := b.DecideCandidate(ctx, sessionID, c.ID, memory.Decision{Action: memory.AcceptEdited, Text: text})
	if err != nil && done.Status == memory.StatusPending { // the edit was refused: no candidate left waiting for it
		_, _ = b.DecideCandidate(context.WithoutCancel(ctx), sessionID, c.ID, memory.Decision{Action: memory.Reject,
			Reason: "the edit was refused: " + err.Error()})
	}
	return done, err
}

// ForgetMemory is a person's deletion of memory e in /memory: a removal
// candidate of sessionID (ProposeForget) accepted in the same step.
func (b *Backend) ForgetMemory(ctx context.Context, sessionID string, e memory.Entry) (memory.Candidate, error) {
	c, err := b.ProposeForget(ctx, sessionID, e.Scope, e.File.Name)
	if err != nil {
		return c, err
	}
	return b.DecideCandidate(ctx, sessionID, c.ID, memory.Decision{Action: memory.Accept})
}
