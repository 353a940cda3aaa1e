package memory

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"pincer/persist"
	"pincer/persist/internal/record"
)

// Candidates (persist.CandidateStore), held as the JSON Badger writes, by id
// in Store.candidates (guarded by Store.mu).

// PutCandidate stores a new pending candidate (ErrDuplicate when the id is taken).
func (s *Store) PutCandidate(ctx context.Context, c persist.Candidate) (persist.Candidate, error) {
	c, err := record.NewCandidate(c, s.now())
	if err != nil {
		return c, err
	}
	data, err := json.Marshal(c)
	if err != nil {
		return c, err
	}
	if err := s.lock(ctx); err != nil {
		return c, err
	}
	defer s.mu.Unlock()
	if s.candidates == nil {
		s.candidates = map[string][]byte{}
	}
	if _, ok := s.candidates[c.ID]; ok {
		return c, fmt.Errorf("persist: candidate %s: %w", c.ID, persist.ErrDuplicate)
	}
	s.candidates[c.ID] = data
	return c, nil
}

// GetCandidate returns candidate id.
func (s *Store) GetCandidate(ctx context.Context, id string) (persist.Candidate, error) {
	if err := record.CheckCandidateID(id); err != nil {
		return persist.Candidate{}, err
	}
	if err := s.lock(ctx); err != nil {
		return persist.Candidate{}, err
	}
	defer s.mu.Unlock()
	return s.candidateLocked(id)
}

// ListCandidates returns the candidates f selects, oldest first.
func (s *Store) ListCandidates(ctx context.Context, f persist.CandidateFilter) ([]persist.Candidate, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	out := []persist.Candidate{}
	bad := 0
	for _, data := range s.candidates {
		var c persist.Candidate
		if json.Unmarshal(data, &c) != nil {
			bad++
			continue
		}
		if record.MatchCandidate(c, f) {
			out = append(out, c)
		}
	}
	record.SortCandidates(out)
	return out, record.CorruptErr("candidate", "", bad)
}

// DecideCandidate records d on pending candidate id.
func (s *Store) DecideCandidate(ctx context.Context, id string, d persist.CandidateDecision) (persist.Candidate, error) {
	return s.changeCandidate(ctx, id, func(c persist.Candidate) (persist.Candidate, error) {
		return record.Decide(c, d, s.now())
	})
}

// MarkCandidateApplied records that accepted candidate id's file was written.
func (s *Store) MarkCandidateApplied(ctx context.Context, id string, at time.Time) (persist.Candidate, error) {
	return s.changeCandidate(ctx, id, func(c persist.Candidate) (persist.Candidate, error) {
		return record.MarkApplied(c, at, s.now())
	})
}

func (s *Store) changeCandidate(ctx context.Context, id string, fn func(persist.Candidate) (persist.Candidate, error)) (persist.Candidate, error) {
	if err := record.CheckCandidateID(id); err != nil {
		return persist.Candidate{}, err
	}
	if err := s.lock(ctx); err != nil {
		return persist.Candidate{}, err
	}
	defer s.mu.Unlock()
	c, err := s.candidateLocked(id)
	if err != nil {
		return c, err
	}
	out, err := fn(c)
	if err != nil {
		return out, err
	}
	data, err := json.Marshal(out)
	if err != nil {
		return out, err
	}
	s.candidates[id] = data
	return out, nil
}

func (s *Store) candidateLocked(id string) (persist.Candidate, error) {
	var c persist.Candidate
	data, ok := s.candidates[id]
	if !ok {
		return c, fmt.Errorf("persist: candidate %s: %w", id, persist.ErrNotFound)
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return c, fmt.Errorf("persist: candidate %s: %w", id, persist.ErrCorrupt)
	}
	return c, nil
}
