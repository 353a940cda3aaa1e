package app

import (
	"context"
	"errors"

	"pincer/core/memory"
)

// ErrNoMemory is returned by the memory methods of a Backend without a
// memory Manager (no config or data dir).
var ErrNoMemory = errors.New("memory is not available (no config or data dir)")

// The Backend's memory and skill candidates (issue 16): what the approval
// queue, /memory and /skills show and decide. Each change reaches the views
// as candidate.proposed / candidate.decided events of the candidate's session.

// PendingCandidates returns the pending candidates of sessionID (for "":
// this project's and the user's, of every session: ProjectCandidates),
// oldest first.
func (b *Backend) PendingCandidates(ctx context.Context, sessionID string) ([]memory.Candidate, error) {
	if b.Memory == nil {
		return nil, ErrNoMemory
	}
	if sessionID == "" {
		return b.ProjectCandidates(ctx, memory.Filter{Status: memory.StatusPending})
	}
	return b.Memory.Store.ListCandidates(ctx, memory.Filter{Status: memory.StatusPending, SessionID: sessionID})
}

// ProjectCandidates returns the candidates f selects that would be written
// where this project's are: user-scope ones (pincer's config dir, across
// projects) and this project's; f.Project is ignored. Oldest first.
func (b *Backend) ProjectCandidates(ctx context.Context, f memory.Filter) ([]memory.Candidate, error) {
	if b.Memory == nil {
		return nil, ErrNoMemory
	}
	f.Project = ""
	all, err := b.Memory.Store.ListCandidates(ctx, f)
	var out []memory.Candidate
	for _, c := range all {
		if c.Scope == memory.ScopeUser || c.Project == b.Memory.Project {
			out = append(out, c)
		}
	}
	return out, err
}

// Candidates returns the candidates f selects (any status), oldest first.
func (b *Backend) Candidates(ctx context.Context, f memory.Filter) ([]memory.Candidate, error) {
	if b.Memory == nil {
		return nil, ErrNoMemory
	}
	return b.Memory.Store.ListCandidates(ctx, f)
}

// DecideCandidate answers candidate id in session sessionID (the session
// whose queue shows it: a candidate of another session is refused with
// persist.ErrWrongSession): accept, accept-edited (d.Text) or reject. An
// accepted one is written at once (memory.Manager.Decide); the error of a
// failed write leaves it accepted for a later repair.
func (b *Backend) DecideCandidate(ctx context.Context, sessionID, id string, d memory.Decision) (memory.Candidate, error) {
	if b.Memory == nil {
		return memory.Candidate{}, ErrNoMemory
	}
	if d.By == "" {
		d.By = "user"
	}
	return b.Memory.Decide(ctx, sessionID, id, d)
}

// CandidateDiff is what accepting candidate id would change (memory.Diff).
func (b *Backend) CandidateDiff(ctx context.Context, id string) (string, error) {
	if b.Memory == nil {
		return "", ErrNoMemory
	}
	c, err := b.Memory.Store.GetCandidate(ctx, id)
	if err != nil {
		return "", err
	}
	return memory.Diff(c), nil
}

// ProposeMemory makes text (what /memory add TEXT typed) a pending memory
// candidate of sessionID (memory.FromText names and types it).
func (b *Backend) ProposeMemory(ctx context.Context, sessionID, text string) (memory.Candidate, error) {
	if b.Memory == nil {
		return memory.Candidate{}, ErrNoMemory
	}
	p, err := memory.FromText(text)
	if err != nil {
		return memory.Candidate{}, err
	}
	p.SessionID, p.Origin = sessionID, memory.OriginSlash
	return b.Memory.Propose(ctx, p)
}

// ProposeForget makes the removal of memory name (scope user or project) a
// pending candidate of sessionID (/memory remove NAME).
func (b *Backend) ProposeForget(ctx context.Context, sessionID, scope, name string) (memory.Candidate, error) {
	if b.Memory == nil {
		return memory.Candidate{}, ErrNoMemory
	}
	return b.Memory.Propose(ctx, memory.Proposal{Kind: memory.KindMemory, Op: memory.OpRemove, Scope: scope,
		Name: name, SessionID: sessionID, Origin: memory.OriginSlash})
}

// Memories lists the memory files of the user and this project (/memory).
func (b *Backend) Memories(ctx context.Context) ([]memory.Entry, error) {
	if b.Memory == nil {
		return nil, ErrNoMemory
	}
	return memory.List(b.Memory.Paths())
}
