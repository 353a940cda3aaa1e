package persist

import (
	"context"
	"errors"
	"time"
)

// Candidate kinds, ops, scopes, origins and statuses (issue 16). A candidate
// is a memory or skill file pincer proposes to write; nothing is written until
// a person accepts it (core/memory.Apply writes it, only for a candidate whose
// stored Status is CandidateAccepted).
const (
	// CandidateMemory is a memory file (and its MEMORY.md index line, or
	// USER.md for scope user); CandidateSkill is a SKILL.md.
	CandidateMemory = "memory"
	CandidateSkill  = "skill"

	// CandidateAdd writes a new file; CandidateUpdate replaces an existing
	// one; CandidateRemove deletes one (a stale memory) and its index line.
	CandidateAdd    = "add"
	CandidateUpdate = "update"
	CandidateRemove = "remove"

	// CandidateUserScope files live in pincer's config dir (USER.md, the
	// user's skills dir); CandidateProjectScope ones under the data dir's
	// project memory dir (or the project's skills dir).
	CandidateUserScope    = "user"
	CandidateProjectScope = "project"

	// CandidatePending waits for a person; CandidateAccepted and
	// CandidateRejected are the decisions (final: a decided candidate is never
	// decided again).
	CandidatePending  = "pending"
	CandidateAccepted = "accepted"
	CandidateRejected = "rejected"

	// Origins: who proposed it.
	OriginRememberTool  = "remember-tool"  // the model's Remember tool call
	OriginRequest       = "request"        // the person typed "remember that …"
	OriginSlash         = "slash"          // /memory add TEXT (or pincer memory add)
	OriginObserver      = "observer"       // the post-turn memory observer
	OriginSkillObserver = "skill-observer" // the skill-learning observer
)

// ErrDecided is matched (errors.Is) by DecideCandidate's error for a
// candidate that is no longer pending (decided once already).
var ErrDecided = errors.New("candidate already decided")

// ErrWrongSession is matched by DecideCandidate's error when the decision is
// made in a session other than the candidate's (a front end answers only its
// own session's queue; the command line, SessionID "", may decide any).
var ErrWrongSession = errors.New("candidate belongs to another session")

// ErrNotAccepted is matched by MarkCandidateApplied's error for a candidate
// whose stored status is not accepted.
var ErrNotAccepted = errors.New("candidate is not accepted")

// Candidate is one proposed memory or skill file and its review. Content is
// the full text of the file to write (frontmatter and body; for Op remove,
// empty). Target is the absolute path core/memory derived for it (never a
// path the model gave); Project the workspace root a project-scope candidate
// belongs to. Times are UTC.
type Candidate struct {
	ID          string `json:"id"`
	Kind        string `json:"kind"`           // CandidateMemory | CandidateSkill
	Op          string `json:"op"`             // CandidateAdd | CandidateUpdate | CandidateRemove
	Type        string `json:"type,omitempty"` // memory type: user | feedback | project | reference
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Content     string `json:"content,omitempty"`
	Target      string `json:"target"`
	Scope       string `json:"scope"` // CandidateUserScope | CandidateProjectScope
	Project     string `json:"project,omitempty"`
	// SessionID and Turn (from 1) are where it was proposed (its source);
	// TurnID the turn's id when there was one.
	SessionID string `json:"sessionId"`
	Turn      int    `json:"turn,omitempty"`
	TurnID    string `json:"turnId,omitempty"`
	Origin    string `json:"origin"`
	Status    string `json:"status"`
	// Edited says the person changed Content before accepting it (the
	// proposed text is in Proposed).
	Edited   bool   `json:"edited,omitempty"`
	Proposed string `json:"proposed,omitempty"`
	// DecidedBy is who decided ("user" in a front end, "cli" for `pincer
	// memory approve|reject`), DecidedIn the session it was decided in ("":
	// the command line), Reason a rejection's reason.
	DecidedBy string    `json:"decidedBy,omitempty"`
	DecidedIn string    `json:"decidedIn,omitempty"`
	Reason    string    `json:"reason,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	DecidedAt time.Time `json:"decidedAt,omitzero"`
	// AppliedAt is when its file was written (zero: not yet; an accepted
	// candidate not applied is written by the next core/memory.Repair).
	AppliedAt time.Time `json:"appliedAt,omitzero"`
}

// CandidateDecision is a person's decision on a pending candidate: Status
// accepted or rejected; for accepted, Content non-nil replaces the text (the
// person edited it). SessionID is the session the decision is made in (must
// be the candidate's) or "" for the command line; By who decided; Time when
// (zero: now).
type CandidateDecision struct {
	Status    string    `json:"status"`
	Content   *string   `json:"content,omitempty"`
	SessionID string    `json:"sessionId,omitempty"`
	By        string    `json:"by"`
	Reason    string    `json:"reason,omitempty"`
	Time      time.Time `json:"time,omitzero"`
}

// CandidateFilter selects candidates: each non-empty field must match.
type CandidateFilter struct {
	Status    string `json:"status,omitempty"`
	Kind      string `json:"kind,omitempty"`
	SessionID string `json:"sessionId,omitempty"`
	Project   string `json:"project,omitempty"`
}

// CandidateStore keeps candidates by ID (issue 16). A candidate is created
// pending; DecideCandidate moves it to accepted or rejected once, in one
// transaction (a compare-and-set: the second decision fails with ErrDecided);
// MarkCandidateApplied records that an accepted one's file was written.
// Candidates outlive their session (DeleteSession keeps them).
type CandidateStore interface {
	// PutCandidate stores a new candidate: c.ID unused (else ErrDuplicate),
	// c.Status pending, c.CreatedAt set to now when zero.
	PutCandidate(ctx context.Context, c Candidate) (Candidate, error)
	// GetCandidate returns the candidate id, or an error wrapping ErrNotFound.
	GetCandidate(ctx context.Context, id string) (Candidate, error)
	// ListCandidates returns the candidates f selects, oldest CreatedAt first
	// (then by ID).
	ListCandidates(ctx context.Context, f CandidateFilter) ([]Candidate, error)
	// DecideCandidate records d on pending candidate id and returns the
	// decided candidate: ErrNotFound, ErrDecided, ErrWrongSession, or an
	// error for a Status other than accepted/rejected.
	DecideCandidate(ctx context.Context, id string, d CandidateDecision) (Candidate, error)
	// MarkCandidateApplied sets AppliedAt (at; zero: now) of accepted
	// candidate id (ErrNotAccepted otherwise); marking it again keeps the
	// first time.
	MarkCandidateApplied(ctx context.Context, id string, at time.Time) (Candidate, error)
}
