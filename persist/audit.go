package persist

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"
)

// The audit trail and session rules, shared by both stores: key layout, encoding
// and ordering. Memory orders its entries by the same keys Badger writes, so both
// list in exactly the same order.
//
//	a/<sessionID>/<seq>                one session's audit entries (JSON AuditEntry),
//	                                   seq 8 bytes from 1: a reverse scan is newest first
//	A/<^Time nanos><sessionID>/<^seq>  the same entry again, in a global index ordered
//	                                   newest first by Time (ties: by session id, then
//	                                   newest first); a forward scan lists all sessions
//	p/<sessionID>                      the session's permission rules (JSON []string)
//
// The entry is stored twice (entries are a few hundred bytes) so that both
// listings are a single scan with no lookups.
const (
	kindAudit        = 'a'
	kindAuditByTime  = 'A'
	kindSessionRules = 'p'
)

// auditTimePrefix is the prefix of every global audit index key.
var auditTimePrefix = []byte{kindAuditByTime, '/'}

// auditTimeKey is the global index key of entry seq of a session, at t.
func auditTimeKey(sessionID string, seq uint64, t time.Time) []byte {
	k := make([]byte, 0, 2+8+len(sessionID)+1+8)
	k = append(k, auditTimePrefix...)
	k = binary.BigEndian.AppendUint64(k, ^timeNanos(t))
	k = append(k, sessionID...)
	k = append(k, '/')
	return binary.BigEndian.AppendUint64(k, ^seq)
}

func sessionRulesKey(sessionID string) []byte { return simpleKey(kindSessionRules, sessionID) }

// prepareAudit checks e, stamps a zero Time with now (UTC) and returns the entry
// and its encoding.
func prepareAudit(e AuditEntry, now time.Time) (AuditEntry, []byte, error) {
	if err := checkSessionID(e.SessionID); err != nil {
		return AuditEntry{}, nil, err
	}
	if e.Time.IsZero() {
		e.Time = now.UTC()
	}
	b, err := json.Marshal(e)
	if err != nil {
		return AuditEntry{}, nil, fmt.Errorf("persist: encode audit entry: %w", err)
	}
	return e, b, nil
}

func decodeAudit(b []byte) (AuditEntry, error) {
	var e AuditEntry
	if err := json.Unmarshal(b, &e); err != nil {
		return AuditEntry{}, errUndecodable
	}
	return e, nil
}

// encodeSessionRules checks the session id and returns the rules' JSON (an empty
// list for nil).
func encodeSessionRules(sessionID string, rules []string) ([]byte, error) {
	if err := checkSessionID(sessionID); err != nil {
		return nil, err
	}
	if rules == nil {
		rules = []string{}
	}
	b, err := json.Marshal(rules)
	if err != nil {
		return nil, fmt.Errorf("persist: encode session rules: %w", err)
	}
	return b, nil
}

// decodeSessionRules decodes a stored rule list; an undecodable one is reported
// as corrupt with the session id.
func decodeSessionRules(sessionID string, b []byte) ([]string, error) {
	var rules []string
	if err := json.Unmarshal(b, &rules); err != nil {
		return []string{}, fmt.Errorf("persist: permission rules of session %s: %w", sessionID, ErrCorrupt)
	}
	if rules == nil {
		rules = []string{}
	}
	return rules, nil
}
