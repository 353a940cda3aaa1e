// Package persist is the contract of pincer's store: the Store interface that
// keeps sessions, transcripts, event logs, leases, the audit trail and session
// rules, the records it keeps (Session, Lease, AuditEntry) and its errors. The
// implementations live below it: persist/badger (on disk, one process at a
// time), persist/memory (for tests), persist/remote (a Client of the store
// daemon, and the Server it runs) and persist/daemon (the daemon process:
// start on demand, idle exit, its files). Every one runs the contract suite
// in persist/storetest, which checks what is written here:
//   - Sessions are listed newest first by UpdatedAt.
//   - Messages of a session are numbered from 1 by AppendMessage, in append order,
//     and never rewritten (the transcript is the whole truth).
//   - Events are numbered per session from 1 by the store (AppendEventNext, which
//     core/event.Log uses), atomically in the one process that owns the store, or
//     stored under a sequence the caller assigned (AppendEvent); storing a
//     sequence twice is an error (ErrDuplicate), so a log never forks.
//     WaitEvents wakes when a session has new events, whoever appended them.
//   - A lease is held by one owner until it expires (TTL) or is released; acquiring
//     or renewing is a compare-and-set in one transaction.
//   - Audit entries (permission decisions) are append-only; they are listed newest
//     first, per session (append order) or across sessions (by Time).
//   - Session permission rules are one list per session, replaced as a whole.
//   - Prompt history is per project (workspace root), newest first, bounded
//     (PromptHistoryLimit) with consecutive duplicates collapsed; a project
//     has at most one unsent draft.
//   - A record that cannot be decoded is skipped by listings and reported
//     (ErrCorrupt, CorruptError).
//
// persist knows the types of core/event and core/message but no behaviour: the
// rule that closes a turn a dead process left open is core/event.CloseTurn,
// which the store daemon applies.
package persist

import (
	"context"
	"errors"
	"time"

	"pincer/core/event"
	"pincer/core/message"
)

// ErrNotFound is returned for a session (or other record) that does not exist.
var ErrNotFound = errors.New("not found")

// ErrDuplicate is returned when an event sequence is already stored.
var ErrDuplicate = errors.New("duplicate event sequence")

// Session is a session's record. Status is idle, running, failed or cancelled (the
// state after its last turn). Title is the first user input, cut to one line.
type Session struct {
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	Cwd       string    `json:"cwd"`
	Model     string    `json:"model"`
	Status    string    `json:"status"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`

	// ParentID is the session whose Agent tool call (ParentToolCallID) started
	// this one as a subagent (a child session, as Claude Code's sidechain
	// transcripts); both are "" for a top-level session.
	ParentID         string `json:"parentId,omitempty"`
	ParentToolCallID string `json:"parentToolCallId,omitempty"`
	// AgentType is the subagent type a child session runs as ("Explore",
	// "general-purpose", a .claude/agents definition's name); "" otherwise.
	AgentType string `json:"agentType,omitempty"`
	// Worktree is the git worktree the session works in (an absolute path) and
	// Branch its branch, when the session was put in one (`pincer --worktree`,
	// an Agent call with isolation "worktree"); both "" otherwise.
	Worktree string `json:"worktree,omitempty"`
	Branch   string `json:"branch,omitempty"`
	// BranchOf is the session a conversation rewind branched this one from
	// (`pincer rewind --conversation`), BranchTurn the turn (from 1) it was
	// rewound to before: the branch holds a copy of that session's messages of
	// the turns before it. Both are zero for a session that is no branch.
	BranchOf   string `json:"branchOf,omitempty"`
	BranchTurn int    `json:"branchTurn,omitempty"`
}

// Lease is who holds a session and until when.
type Lease struct {
	SessionID string    `json:"sessionId"`
	Owner     string    `json:"owner"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// Store is the persistence contract every part of pincer uses. Methods are safe for
// concurrent use. Errors wrap ErrNotFound / ErrDuplicate where those apply.
type Store interface {
	// PutSession creates or replaces a session record and updates the recency index.
	PutSession(ctx context.Context, s Session) error
	// GetSession returns a session or an error wrapping ErrNotFound.
	GetSession(ctx context.Context, id string) (Session, error)
	// ListSessions returns up to limit sessions, newest UpdatedAt first (limit <= 0: all).
	ListSessions(ctx context.Context, limit int) ([]Session, error)
	// DeleteSession deletes a session and everything stored under it: its
	// record and recency index key, messages, events, lease, audit entries (in
	// both orders) and session rules. It returns an error wrapping ErrNotFound
	// when there was no session record (anything else stored under the id is
	// deleted all the same). The caller makes sure no turn runs on it (hold its
	// lease); a later append under the same id starts a new, empty session.
	DeleteSession(ctx context.Context, id string) error

	// AppendMessage stores m as the session's next message and returns it with Seq set.
	AppendMessage(ctx context.Context, m message.Message) (message.Message, error)
	// ListMessages returns every message of a session in Seq order.
	ListMessages(ctx context.Context, sessionID string) ([]message.Message, error)

	event.Store
	// AppendEventNext stores ev as its session's next event (Sequence set by the
	// store, Timestamp kept) and returns it.
	AppendEventNext(ctx context.Context, ev event.Event) (event.Event, error)
	// WaitEvents returns nil once the session has an event after sequence after,
	// or ctx's error when ctx ends first.
	WaitEvents(ctx context.Context, sessionID string, after uint64) error

	// AcquireLease gives the session to owner for ttl if it is free, expired, or
	// already owner's (then it is renewed). It reports whether owner now holds it and,
	// when not, the current holder.
	AcquireLease(ctx context.Context, sessionID, owner string, ttl time.Duration) (bool, Lease, error)
	// RenewLease extends owner's lease by ttl; false when owner no longer holds it.
	RenewLease(ctx context.Context, sessionID, owner string, ttl time.Duration) (bool, error)
	// ReleaseLease frees the session if owner holds it; otherwise it does nothing.
	ReleaseLease(ctx context.Context, sessionID, owner string) error
	// GetLease returns the session's live lease, found false when the session is
	// free (no lease, or an expired one). It only reads: who runs a session
	// another process holds (the workbench's attach).
	GetLease(ctx context.Context, sessionID string) (l Lease, found bool, err error)

	// AppendAudit appends e to the audit trail of e.SessionID. A zero Time is set
	// to now (UTC).
	AppendAudit(ctx context.Context, e AuditEntry) error
	// ListAudit returns up to limit audit entries, newest first (limit <= 0: all):
	// of one session in append order reversed, or of every session ("") by Time.
	ListAudit(ctx context.Context, sessionID string, limit int) ([]AuditEntry, error)

	// PutSessionRules replaces the permission rules of a session: canonical rule
	// strings with a behavior prefix, e.g. "allow:Bash(npm test)".
	PutSessionRules(ctx context.Context, sessionID string, rules []string) error
	// GetSessionRules returns the rules PutSessionRules stored, in order; none
	// stored is an empty list, not an error.
	GetSessionRules(ctx context.Context, sessionID string) ([]string, error)

	// PromptStore: each project's prompt history and unsent draft (prompts.go).
	PromptStore

	// CheckpointStore: checkpoints and their blobs (checkpoints.go).
	CheckpointStore

	// CandidateStore: memory and skill candidates (candidates.go).
	CandidateStore

	// Close releases the store's resources.
	Close() error
}

// EventJSONLister is a Store that can list a session's events as the bytes it
// keeps them as (each event's flat JSON), so the store daemon sends them on
// unchanged instead of decoding and encoding each one (issue 19). Badger is
// one; the daemon falls back to ListEvents for a store that is not.
type EventJSONLister interface {
	// ListEventsJSON is ListEvents as one JSON array of the stored records,
	// in order: the records that are not a JSON object are skipped and
	// reported as ListEvents reports them (a *CorruptError next to the
	// array). A record that is JSON but not an event (a field of the wrong
	// type) is left for the reader to find.
	ListEventsJSON(ctx context.Context, sessionID string, after uint64, limit int) ([]byte, error)
}

// AuditEntry is one permission decision in the audit trail: which tool call, what
// it would do (Summary), the outcome (Decision: allow, deny or ask), the rule
// that matched if any (canonical form), and who decided (By: "rule ... from
// SOURCE", "mode:acceptEdits", "hard-deny", "read-only", "user", "headless").
// Scope is a person's answer's scope (once, session, always; "" when no one
// was asked) and Reason the decision's reason (a denial's reaches the model).
type AuditEntry struct {
	SessionID  string `json:"sessionId"`
	TurnID     string `json:"turnId,omitempty"`
	ToolCallID string `json:"toolCallId,omitempty"`
	Tool       string `json:"tool"`
	// Origin is where a tool that is not built in comes from (tools.Spec.Origin:
	// "mcp:SERVER", "plugin:NAME"); "" for a built-in tool.
	Origin   string    `json:"origin,omitempty"`
	Summary  string    `json:"summary,omitempty"`
	Decision string    `json:"decision"`
	Rule     string    `json:"rule,omitempty"`
	By       string    `json:"by"`
	Scope    string    `json:"scope,omitempty"`
	Reason   string    `json:"reason,omitempty"`
	Time     time.Time `json:"time"`
}
