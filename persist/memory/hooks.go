package memory

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"pincer/persist/internal/record"
)

// Hooks for tests (the contract suite in persist/storetest and the suites of
// the stores built on this one). They bypass the store's rules.

// SetClock makes the store read the time (CreatedAt, audit Time, lease expiry)
// from now. Call it before the store is shared with other goroutines.
func (s *Store) SetClock(now func() time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now = now
}

// WriteRaw stores value under key exactly as given, with no check or
// encoding, as persist/badger's WriteRaw does: key is in the layout of
// persist/internal/record, of a session record (s/), a message or event
// (m/, e/), an audit entry in either order (a/, A/) or session rules (p/). A
// message or audit entry must exist already (this store keeps them by
// position); any other key is an error.
func (s *Store) WriteRaw(key, value []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(key) < 3 || key[1] != '/' {
		return fmt.Errorf("memory: WriteRaw: malformed key %q", key)
	}
	kind, rest := key[0], key[2:]
	seqd := func() (string, uint64, error) {
		if len(rest) < 10 || rest[len(rest)-9] != '/' {
			return "", 0, fmt.Errorf("memory: WriteRaw: key %q has no sequence", key)
		}
		return string(rest[:len(rest)-9]), binary.BigEndian.Uint64(rest[len(rest)-8:]), nil
	}
	switch kind {
	case record.KindSession:
		s.sessions[string(rest)] = value
	case record.KindSessionRules:
		if s.extra.rules == nil {
			s.extra.rules = map[string][]byte{}
		}
		s.extra.rules[string(rest)] = value
	case record.KindMessage, record.KindAudit:
		sid, seq, err := seqd()
		if err != nil {
			return err
		}
		list := s.messages[sid]
		if kind == record.KindAudit {
			list = s.extra.audit[sid]
		}
		if seq == 0 || seq > uint64(len(list)) {
			return fmt.Errorf("memory: WriteRaw: no record under %q", key)
		}
		list[seq-1] = value
	case record.KindEvent:
		sid, seq, err := seqd()
		if err != nil {
			return err
		}
		evs := s.events[sid]
		if evs == nil {
			evs = &memEvents{data: map[uint64][]byte{}}
			s.events[sid] = evs
		}
		if i, found := slices.BinarySearch(evs.seqs, seq); !found {
			evs.seqs = slices.Insert(evs.seqs, i, seq)
		}
		evs.data[seq] = value
	case record.KindAuditByTime:
		i := slices.IndexFunc(s.extra.all, func(r memAuditRef) bool { return bytes.Equal(r.key, key) })
		if i < 0 {
			return fmt.Errorf("memory: WriteRaw: no audit entry under %q", key)
		}
		s.extra.all[i].val = value
	default:
		return fmt.Errorf("memory: WriteRaw: key kind %q is not kept by position here", kind)
	}
	return nil
}
