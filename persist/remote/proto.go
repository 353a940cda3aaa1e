package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/persist"
)

// The wire between a Client and a Server (the store daemon): HTTP/1.1 over a Unix
// socket, one POST per Store method.
//
//	POST /v1/<Method>               Method as in Store: GetSession, AppendEventNext, ...
//	Pincer-Store-Protocol: 1        both ways; a mismatch is refused with 409
//	Pincer-Client: <client id>      who calls: leases are tracked per client
//	Pincer-Retry: 1                 set on a retry after a lost connection: the
//	                                server makes appends and deletes idempotent
//	body: wireArgs as JSON          answer: wireReply as JSON (200)
//
// Store errors travel in the reply (wireError: the message, which sentinels it
// matches, a *persist.CorruptError's fields), next to a listing's result when it has one.
// Two methods are the daemon's own: Attach, held open for as long as the client
// lives (its end releases the client's leases), and Ping (who is serving).
const (
	// ProtocolVersion is the version of the wire; a change that an older peer
	// would misread increments it.
	ProtocolVersion = "1"

	hdrProtocol = "Pincer-Store-Protocol"
	hdrClient   = "Pincer-Client"
	hdrRetry    = "Pincer-Retry"
	hdrPID      = "Pincer-Daemon-Pid"
	hdrVersion  = "Pincer-Daemon-Version"

	pathPrefix = "/v1/"

	// maxWait bounds one WaitEvents request; the client asks again.
	maxWait = 25 * time.Second
)

// wireArgs are the arguments of every method; each uses the fields it needs.
type wireArgs struct {
	ID      string              `json:"id,omitempty"` // session id
	Session *persist.Session    `json:"session,omitempty"`
	Message *message.Message    `json:"message,omitempty"`
	Event   *event.Event        `json:"event,omitempty"`
	Audit   *persist.AuditEntry `json:"audit,omitempty"`
	Rules   []string            `json:"rules,omitempty"`
	Owner   string              `json:"owner,omitempty"`
	TTL     time.Duration       `json:"ttl,omitempty"`
	After   uint64              `json:"after,omitempty"`
	Limit   int                 `json:"limit,omitempty"`
	Wait    time.Duration       `json:"wait,omitempty"`    // WaitEvents: give up after this
	Leases  []persist.Lease     `json:"leases,omitempty"`  // Attach: leases the client holds
	Project string              `json:"project,omitempty"` // prompt history and drafts (prompts.go)
	Text    string              `json:"text,omitempty"`
	// Checkpoints and blobs (checkpoints.go).
	Hash       string              `json:"hash,omitempty"`
	Data       []byte              `json:"data,omitempty"`
	Checkpoint *persist.Checkpoint `json:"checkpoint,omitempty"`
	Seq        uint64              `json:"seq,omitempty"`
	// Candidates (candidates.go).
	CandidateID     string                     `json:"candidateId,omitempty"`
	Candidate       *persist.Candidate         `json:"candidate,omitempty"`
	CandidateFilter *persist.CandidateFilter   `json:"candidateFilter,omitempty"`
	Decision        *persist.CandidateDecision `json:"decision,omitempty"`
	At              time.Time                  `json:"at,omitzero"`
}

// wireReply is the answer to every method.
type wireReply struct {
	Result json.RawMessage `json:"result,omitempty"`
	Error  *wireError      `json:"error,omitempty"`
}

// wireError is an error as it crosses the wire.
type wireError struct {
	Message string                `json:"message"`
	Kinds   []string              `json:"kinds,omitempty"`
	Corrupt *persist.CorruptError `json:"corrupt,omitempty"` // set when the error is exactly one
}

// appended is the result of AppendEventNext: what the daemon set (the client
// has the rest of the event).
type appended struct {
	Sequence  uint64    `json:"sequence"`
	Timestamp time.Time `json:"timestamp"`
}

// leaseReply is the result of AcquireLease and RenewLease.
type leaseReply struct {
	OK    bool          `json:"ok"`
	Lease persist.Lease `json:"lease"`
}

// PingReply is what Ping answers: who serves the store.
type PingReply struct {
	PID      int    `json:"pid"`      // the daemon's process id
	Version  string `json:"version"`  // its pincer version
	Protocol string `json:"protocol"` // ProtocolVersion as it speaks it
	Store    string `json:"store"`    // the store directory it serves
	Clients  int    `json:"clients"`  // clients it knows (attached or holding leases)
}

// errorKinds are the sentinels a wireError can match, by name.
var errorKinds = map[string]error{
	"not_found":     persist.ErrNotFound,
	"duplicate":     persist.ErrDuplicate,
	"corrupt":       persist.ErrCorrupt,
	"closed":        persist.ErrClosed,
	"in_use":        persist.ErrInUse,
	"decided":       persist.ErrDecided,
	"wrong_session": persist.ErrWrongSession,
	"not_accepted":  persist.ErrNotAccepted,
	"canceled":      context.Canceled,
	"deadline":      context.DeadlineExceeded,
}

// encodeError turns err into its wire form (nil for nil).
func encodeError(err error) *wireError {
	if err == nil {
		return nil
	}
	we := &wireError{Message: err.Error()}
	for name, sentinel := range errorKinds {
		if errors.Is(err, sentinel) {
			we.Kinds = append(we.Kinds, name)
		}
	}
	if ce, ok := err.(*persist.CorruptError); ok {
		we.Corrupt = ce
	}
	return we
}

// decode turns a wire error back into an error with the same message that
// matches the same sentinels (errors.Is) and, for a listing's *persist.CorruptError,
// is one (errors.As).
func (we *wireError) decode() error {
	if we == nil {
		return nil
	}
	if we.Corrupt != nil && we.Corrupt.Error() == we.Message {
		return we.Corrupt
	}
	re := &RemoteError{Msg: we.Message}
	for _, k := range we.Kinds {
		if s, ok := errorKinds[k]; ok {
			re.kinds = append(re.kinds, s)
		}
	}
	return re
}

// RemoteError is an error the store daemon returned: its message as it was, and
// the sentinels (persist.ErrNotFound, persist.ErrCorrupt, ...) it matched there.
type RemoteError struct {
	Msg   string // the error's message in the daemon
	kinds []error
}

// Error returns the daemon's message.
func (e *RemoteError) Error() string { return e.Msg }

// Unwrap returns the sentinels the error matched in the daemon.
func (e *RemoteError) Unwrap() []error { return e.kinds }

// ErrProtocol is matched by the error of a client and a daemon that speak
// different protocol versions.
var ErrProtocol = errors.New("store protocol mismatch")

// ProtocolError is a daemon of another protocol version. Its message is one line
// that says what to do.
type ProtocolError struct {
	Theirs, Ours string // the peer's protocol version and this side's
	PID          int    // the daemon's pid, 0 if unknown
	Version      string // the daemon's pincer version
}

// Error says which versions met and what to do.
func (e *ProtocolError) Error() string {
	who := "the pincer store daemon"
	if e.PID > 0 {
		who = fmt.Sprintf("the pincer store daemon (pid %d, pincer %s)", e.PID, e.Version)
	}
	return fmt.Sprintf("%s speaks store protocol %q but this pincer speaks %q: "+
		"stop it (pincer starts one of its own version on demand) once its other clients are done",
		who, e.Theirs, e.Ours)
}

// Is reports whether target is ErrProtocol.
func (e *ProtocolError) Is(target error) bool { return target == ErrProtocol }
