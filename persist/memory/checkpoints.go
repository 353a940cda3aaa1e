package memory

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"pincer/persist"
	"pincer/persist/internal/record"
)

// memCheckpoints holds blobs and checkpoints; its zero value is ready to use.
// Guarded by Store.mu.
type memCheckpoints struct {
	blobs map[string][]byte
	cps   map[string][][]byte // per session, index i holds Seq i+1 (nil: deleted)
}

// PutBlob stores data under hash unless it is stored (persist.CheckpointStore).
func (s *Store) PutBlob(ctx context.Context, hash string, data []byte) error {
	if err := record.CheckBlobHash(hash); err != nil {
		return err
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	c := &s.checkpoints
	if c.blobs == nil {
		c.blobs = map[string][]byte{}
	}
	if _, ok := c.blobs[hash]; !ok {
		c.blobs[hash] = slices.Clone(data)
	}
	return nil
}

// GetBlob returns the blob of hash.
func (s *Store) GetBlob(ctx context.Context, hash string) ([]byte, error) {
	if err := record.CheckBlobHash(hash); err != nil {
		return nil, err
	}
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	b, ok := s.checkpoints.blobs[hash]
	if !ok {
		return nil, fmt.Errorf("persist: blob %s: %w", hash, persist.ErrNotFound)
	}
	return slices.Clone(b), nil
}

// DeleteBlob deletes the blob of hash.
func (s *Store) DeleteBlob(ctx context.Context, hash string) error {
	if err := record.CheckBlobHash(hash); err != nil {
		return err
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	delete(s.checkpoints.blobs, hash)
	return nil
}

// ListBlobs returns every blob's hash and stored size.
func (s *Store) ListBlobs(ctx context.Context) (map[string]int64, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	out := make(map[string]int64, len(s.checkpoints.blobs))
	for h, b := range s.checkpoints.blobs {
		out[h] = int64(len(b))
	}
	return out, nil
}

// AppendCheckpoint stores c as its session's next checkpoint.
func (s *Store) AppendCheckpoint(ctx context.Context, c persist.Checkpoint) (persist.Checkpoint, error) {
	if err := record.CheckSessionID(c.SessionID); err != nil {
		return c, err
	}
	if err := s.lock(ctx); err != nil {
		return c, err
	}
	defer s.mu.Unlock()
	m := &s.checkpoints
	if m.cps == nil {
		m.cps = map[string][][]byte{}
	}
	c.Seq = uint64(len(m.cps[c.SessionID]) + 1)
	if c.Time.IsZero() {
		c.Time = s.now().UTC()
	}
	data, err := json.Marshal(c)
	if err != nil {
		return c, err
	}
	m.cps[c.SessionID] = append(m.cps[c.SessionID], data)
	return c, nil
}

// ListCheckpoints returns a session's checkpoints (or every session's, "").
func (s *Store) ListCheckpoints(ctx context.Context, sessionID string) ([]persist.Checkpoint, error) {
	if sessionID != "" {
		if err := record.CheckSessionID(sessionID); err != nil {
			return nil, err
		}
	}
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	ids := []string{sessionID}
	if sessionID == "" {
		ids = ids[:0]
		for id := range s.checkpoints.cps {
			ids = append(ids, id)
		}
		slices.Sort(ids)
	}
	out := []persist.Checkpoint{}
	for _, id := range ids {
		for _, data := range s.checkpoints.cps[id] {
			if data == nil {
				continue
			}
			var c persist.Checkpoint
			if err := json.Unmarshal(data, &c); err != nil {
				return out, err
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// DeleteCheckpoint deletes one checkpoint.
func (s *Store) DeleteCheckpoint(ctx context.Context, sessionID string, seq uint64) error {
	if err := record.CheckSessionID(sessionID); err != nil {
		return err
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if l := s.checkpoints.cps[sessionID]; seq >= 1 && seq <= uint64(len(l)) {
		l[seq-1] = nil
	}
	return nil
}
