package memory

import (
	"bytes"
	"context"
	"slices"
	"sort"

	"pincer/persist"
	"pincer/persist/internal/record"
)

// memExtra holds the Store's audit trail and session rules; its zero value is ready
// to use. Guarded by Store.mu.
type memExtra struct {
	audit map[string][][]byte // per session, index i holds seq i+1
	all   []memAuditRef       // every entry, sorted by its Badger index key
	rules map[string][]byte
}

// memAuditRef places one entry in the global order: key is the entry's key in
// Badger's time index, so both stores list in the same order.
type memAuditRef struct {
	key []byte
	val []byte
}

// AppendAudit appends e to its session's audit trail; a zero Time becomes now.
func (s *Store) AppendAudit(ctx context.Context, e persist.AuditEntry) error {
	e, b, err := record.PrepareAudit(e, s.now())
	if err != nil {
		return err
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	x := &s.extra
	if x.audit == nil {
		x.audit = map[string][][]byte{}
	}
	x.audit[e.SessionID] = append(x.audit[e.SessionID], b)
	ref := memAuditRef{key: record.AuditTimeKey(e.SessionID, uint64(len(x.audit[e.SessionID])), e.Time), val: b}
	i := sort.Search(len(x.all), func(i int) bool { return bytes.Compare(x.all[i].key, ref.key) >= 0 })
	x.all = slices.Insert(x.all, i, ref)
	return nil
}

// ListAudit returns up to limit entries newest first (limit <= 0: all), of one
// session or of all (""). Undecodable entries are skipped and reported with a
// *CorruptError next to the others.
func (s *Store) ListAudit(ctx context.Context, sessionID string, limit int) ([]persist.AuditEntry, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	var raws [][]byte
	if sessionID == "" {
		for _, r := range s.extra.all {
			raws = append(raws, r.val)
		}
	} else {
		raws = slices.Clone(s.extra.audit[sessionID])
		slices.Reverse(raws)
	}
	s.mu.Unlock()
	out := []persist.AuditEntry{}
	bad := 0
	for _, raw := range raws {
		if limit > 0 && len(out) == limit {
			break
		}
		e, err := record.DecodeAudit(raw)
		if err != nil {
			bad++
			continue
		}
		out = append(out, e)
	}
	return out, record.CorruptErr("audit", sessionID, bad)
}

// PutSessionRules replaces the permission rules of a session.
func (s *Store) PutSessionRules(ctx context.Context, sessionID string, rules []string) error {
	b, err := record.EncodeSessionRules(sessionID, rules)
	if err != nil {
		return err
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if s.extra.rules == nil {
		s.extra.rules = map[string][]byte{}
	}
	s.extra.rules[sessionID] = b
	return nil
}

// GetSessionRules returns the rules of a session; none stored is an empty list.
func (s *Store) GetSessionRules(ctx context.Context, sessionID string) ([]string, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	b, ok := s.extra.rules[sessionID]
	s.mu.Unlock()
	if !ok {
		return []string{}, nil
	}
	return record.DecodeSessionRules(sessionID, b)
}
