package record

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"pincer/persist"
)

// Key layout of candidates (persist.CandidateStore):
//
//	k/<candidateID>   one candidate (JSON persist.Candidate)
//
// The rules every store applies to them are here, so the stores agree:
// NewCandidate (what a new one must be), Decide (the one transition out of
// pending) and MarkApplied.
const KindCandidate = 'k'

// CandidatePrefix is the prefix of every candidate key.
var CandidatePrefix = []byte{KindCandidate, '/'}

// CandidateKey is the key of candidate id.
func CandidateKey(id string) []byte { return SimpleKey(KindCandidate, id) }

// CheckCandidateID refuses an id that is empty, over 128 bytes, or holds a
// byte other than a letter, digit, '-' or '_' (ids are the store's, never a
// path).
func CheckCandidateID(id string) error {
	if id == "" || len(id) > 128 {
		return fmt.Errorf("persist: invalid candidate id %q (1 to 128 bytes)", id)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return fmt.Errorf("persist: invalid candidate id %q (letters, digits, '-', '_')", id)
		}
	}
	return nil
}

// NewCandidate checks a candidate to be stored by PutCandidate and returns it
// with CreatedAt set (now, UTC, when zero): a valid id, status pending (""
// becomes pending), kind, op and scope known, a target, no decision fields.
func NewCandidate(c persist.Candidate, now time.Time) (persist.Candidate, error) {
	if err := CheckCandidateID(c.ID); err != nil {
		return c, err
	}
	if c.Status == "" {
		c.Status = persist.CandidatePending
	}
	switch {
	case c.Status != persist.CandidatePending:
		return c, fmt.Errorf("persist: a new candidate is pending, not %q", c.Status)
	case !slices.Contains([]string{persist.CandidateMemory, persist.CandidateSkill}, c.Kind):
		return c, fmt.Errorf("persist: candidate kind %q (memory or skill)", c.Kind)
	case !slices.Contains([]string{persist.CandidateAdd, persist.CandidateUpdate, persist.CandidateRemove}, c.Op):
		return c, fmt.Errorf("persist: candidate op %q (add, update or remove)", c.Op)
	case !slices.Contains([]string{persist.CandidateUserScope, persist.CandidateProjectScope}, c.Scope):
		return c, fmt.Errorf("persist: candidate scope %q (user or project)", c.Scope)
	case strings.TrimSpace(c.Target) == "":
		return c, errors.New("persist: candidate has no target")
	case c.Edited || c.DecidedBy != "" || !c.DecidedAt.IsZero() || !c.AppliedAt.IsZero():
		return c, errors.New("persist: a new candidate carries no decision")
	}
	if c.CreatedAt.IsZero() {
		c.CreatedAt = now.UTC()
	}
	return c, nil
}

// Decide applies decision d to stored candidate c: the one transition out of
// pending. Errors wrap persist.ErrDecided (c not pending),
// persist.ErrWrongSession (d made in another session than c's), or name a
// status other than accepted/rejected, or an edit of a rejection.
func Decide(c persist.Candidate, d persist.CandidateDecision, now time.Time) (persist.Candidate, error) {
	switch {
	case c.Status != persist.CandidatePending:
		return c, fmt.Errorf("persist: candidate %s is %s: %w", c.ID, c.Status, persist.ErrDecided)
	case d.SessionID != "" && d.SessionID != c.SessionID:
		return c, fmt.Errorf("persist: candidate %s (session %s) decided in session %s: %w",
			c.ID, c.SessionID, d.SessionID, persist.ErrWrongSession)
	case d.Status != persist.CandidateAccepted && d.Status != persist.CandidateRejected:
		return c, fmt.Errorf("persist: decision %q (accepted or rejected)", d.Status)
	case d.Status == persist.CandidateRejected && d.Content != nil:
		return c, errors.New("persist: a rejection carries no edited text")
	case strings.TrimSpace(d.By) == "":
		return c, errors.New("persist: a decision names who decided")
	}
	if d.Content != nil && *d.Content != c.Content {
		c.Proposed, c.Content, c.Edited = c.Content, *d.Content, true
	}
	if d.Time.IsZero() {
		d.Time = now
	}
	c.Status, c.DecidedBy, c.DecidedIn, c.Reason, c.DecidedAt = d.Status, d.By, d.SessionID, d.Reason, d.Time.UTC()
	return c, nil
}

// MarkApplied sets c's AppliedAt to at (now when zero) unless it is set:
// persist.ErrNotAccepted for a candidate not accepted.
func MarkApplied(c persist.Candidate, at, now time.Time) (persist.Candidate, error) {
	if c.Status != persist.CandidateAccepted {
		return c, fmt.Errorf("persist: candidate %s is %s: %w", c.ID, c.Status, persist.ErrNotAccepted)
	}
	if !c.AppliedAt.IsZero() {
		return c, nil
	}
	if at.IsZero() {
		at = now
	}
	c.AppliedAt = at.UTC()
	return c, nil
}

// MatchCandidate reports whether c is one f selects.
func MatchCandidate(c persist.Candidate, f persist.CandidateFilter) bool {
	return (f.Status == "" || f.Status == c.Status) && (f.Kind == "" || f.Kind == c.Kind) &&
		(f.SessionID == "" || f.SessionID == c.SessionID) && (f.Project == "" || f.Project == c.Project)
}

// SortCandidates orders l oldest CreatedAt first, then by ID.
func SortCandidates(l []persist.Candidate) {
	slices.SortFunc(l, func(a, b persist.Candidate) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}
