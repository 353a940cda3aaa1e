package remote

import (
	"context"
	"errors"
	"time"

	"pincer/persist"
)

// Candidates over the wire (persist.CandidateStore): the Client's methods and
// the Server's handlers. The client sets the times before it sends, so a
// retry after a lost connection sends the same record; the server answers a
// retried PutCandidate whose candidate is stored (ErrDuplicate) and a retried
// DecideCandidate whose decision is stored (ErrDecided) with the stored
// candidate, so neither is an error the first attempt did not have.
// MarkCandidateApplied is idempotent.

// PutCandidate stores a new pending candidate.
func (c *Client) PutCandidate(ctx context.Context, cand persist.Candidate) (persist.Candidate, error) {
	if cand.CreatedAt.IsZero() {
		cand.CreatedAt = c.now().UTC()
	}
	out := cand
	err := c.call(ctx, "PutCandidate", &wireArgs{Candidate: &cand}, &out)
	return out, err
}

// GetCandidate returns candidate id.
func (c *Client) GetCandidate(ctx context.Context, id string) (persist.Candidate, error) {
	var out persist.Candidate
	err := c.call(ctx, "GetCandidate", &wireArgs{CandidateID: id}, &out)
	return out, err
}

// ListCandidates returns the candidates f selects, oldest first.
func (c *Client) ListCandidates(ctx context.Context, f persist.CandidateFilter) ([]persist.Candidate, error) {
	out := []persist.Candidate{}
	err := c.call(ctx, "ListCandidates", &wireArgs{CandidateFilter: &f}, &out)
	if out == nil {
		out = []persist.Candidate{}
	}
	return out, err
}

// DecideCandidate records d on pending candidate id.
func (c *Client) DecideCandidate(ctx context.Context, id string, d persist.CandidateDecision) (persist.Candidate, error) {
	if d.Time.IsZero() {
		d.Time = c.now().UTC()
	}
	var out persist.Candidate
	err := c.call(ctx, "DecideCandidate", &wireArgs{CandidateID: id, Decision: &d}, &out)
	return out, err
}

// MarkCandidateApplied records that accepted candidate id's file was written.
func (c *Client) MarkCandidateApplied(ctx context.Context, id string, at time.Time) (persist.Candidate, error) {
	if at.IsZero() {
		at = c.now().UTC()
	}
	var out persist.Candidate
	err := c.call(ctx, "MarkCandidateApplied", &wireArgs{CandidateID: id, At: at}, &out)
	return out, err
}

func (s *Server) putCandidate(ctx context.Context, r request) (any, error) {
	cand := r.args.Candidate
	if cand == nil {
		return nil, errMissing("PutCandidate", "candidate")
	}
	out, err := s.store.PutCandidate(ctx, *cand)
	if r.retry && errors.Is(err, persist.ErrDuplicate) {
		if got, gerr := s.store.GetCandidate(ctx, cand.ID); gerr == nil && got.CreatedAt.Equal(cand.CreatedAt) &&
			got.Content == cand.Content && got.SessionID == cand.SessionID {
			return got, nil
		}
	}
	return out, err
}

func (s *Server) getCandidate(ctx context.Context, r request) (any, error) {
	return s.store.GetCandidate(ctx, r.args.CandidateID)
}

func (s *Server) listCandidates(ctx context.Context, r request) (any, error) {
	var f persist.CandidateFilter
	if r.args.CandidateFilter != nil {
		f = *r.args.CandidateFilter
	}
	return s.store.ListCandidates(ctx, f)
}

func (s *Server) decideCandidate(ctx context.Context, r request) (any, error) {
	d := r.args.Decision
	if d == nil {
		return nil, errMissing("DecideCandidate", "decision")
	}
	out, err := s.store.DecideCandidate(ctx, r.args.CandidateID, *d)
	if r.retry && errors.Is(err, persist.ErrDecided) {
		if got, gerr := s.store.GetCandidate(ctx, r.args.CandidateID); gerr == nil && got.Status == d.Status &&
			got.DecidedBy == d.By && got.DecidedAt.Equal(d.Time) {
			return got, nil
		}
	}
	return out, err
}

func (s *Server) markCandidateApplied(ctx context.Context, r request) (any, error) {
	return s.store.MarkCandidateApplied(ctx, r.args.CandidateID, r.args.At)
}
