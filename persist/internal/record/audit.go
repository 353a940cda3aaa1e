package record

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	"pincer/persist"
)

// The audit trail and session rules, shared by the stores: key layout, encoding
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
	KindAudit        = 'a' // one session's audit entries
	KindAuditByTime  = 'A' // the global audit index
	KindSessionRules = 'p' // a session's permission rules
)

// AuditTimePrefix is the prefix of every global audit index key.
var AuditTimePrefix = []byte{KindAuditByTime, '/'}

// AuditTimeKey is the global index key of entry seq of a session, at t.
func AuditTimeKey(sessionID string, seq uint64, t time.Time) []byte {
	k := make([]byte, 0, 2+8+len(sessionID)+1+8)
	k = append(k, AuditTimePrefix...)
	k = binary.BigEndian.AppendUint64(k, ^TimeNanos(t))
	k = append(k, sessionID...)
	k = append(k, '/')
	return binary.BigEndian.AppendUint64(k, ^seq)
}

// SessionRulesKey is the key of a session's permission rules.
func SessionRulesKey(sessionID string) []byte { return SimpleKey(KindSessionRules, sessionID) }

// PrepareAudit checks e, stamps a zero Time with now (UTC) and returns the entry
// and its encoding.
func PrepareAudit(e persist.AuditEntry, now time.Time) (persist.AuditEntry, []byte, error) {
	if err := CheckSessionID(e.SessionID); err != nil {
		return persist.AuditEntry{}, nil, err
	}
	if e.Time.IsZero() {
		e.Time = now.UTC()
	}
	b, err := json.Marshal(e)
	if err != nil {
		return persist.AuditEntry{}, nil, fmt.Errorf("persist: encode audit entry: %w", err)
	}
	return e, b, nil
}

// DecodeAudit decodes a stored audit entry (ErrUndecodable when it cannot).
func DecodeAudit(b []byte) (persist.AuditEntry, error) {
	var e persist.AuditEntry
	if err := json.Unmarshal(b, &e); err != nil {
		return persist.AuditEntry{}, ErrUndecodable
	}
	return e, nil
}

// EncodeSessionRules checks the session id and returns the rules' JSON (an empty
// list for nil).
func EncodeSessionRules(sessionID string, rules []string) ([]byte, error) {
	if err := CheckSessionID(sessionID); err != nil {
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

// DecodeSessionRules decodes a stored rule list; an undecodable one is reported
// as corrupt with the session id.
func DecodeSessionRules(sessionID string, b []byte) ([]string, error) {
	var rules []string
	if err := json.Unmarshal(b, &rules); err != nil {
		return []string{}, fmt.Errorf("persist: permission rules of session %s: %w", sessionID, persist.ErrCorrupt)
	}
	if rules == nil {
		rules = []string{}
	}
	return rules, nil
}

// AuditKeySession returns the session id of a global audit index key
// (A/<^time 8 bytes><sessionID>/<^seq 8 bytes>), "" for a malformed key.
// persist.Session ids hold no '/', so the id is exactly what lies between.
func AuditKeySession(key []byte) string {
	start, end := len(AuditTimePrefix)+8, len(key)-9
	if end <= start || key[end] != '/' {
		return ""
	}
	return string(key[start:end])
}
