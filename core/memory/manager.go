package memory

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"

	"pincer/core/event"
	"pincer/persist"
)

// Store is what a Manager keeps candidates and its audit trail in (a
// persist.Store is one).
type Store interface {
	persist.CandidateStore
	// AppendAudit records a decision and a write (persist.Store).
	AppendAudit(ctx context.Context, e persist.AuditEntry) error
	// GetSession tells whether a candidate's session exists (its events go
	// to its log only then).
	GetSession(ctx context.Context, id string) (persist.Session, error)
}

// Manager proposes, decides and applies candidates for one workspace
// (Project) with pincer's config and data dirs (ConfigDir, DataDir: core/config
// Paths.Config and Paths.Data). Log, when set, gets candidate.proposed and
// candidate.decided in the candidate's session. Safe for concurrent use; the
// files are written under a lock of their directory, so processes sharing
// the dirs do not lose each other's index lines.
type Manager struct {
	Store              Store
	ConfigDir, DataDir string
	Project            string
	Log                *event.Log
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

var _ Proposer = (*Manager)(nil)

// Paths are the memory and skill locations of the Manager's project.
func (m *Manager) Paths() Paths { return PathsFor(m.ConfigDir, m.DataDir, m.Project) }

func (m *Manager) now() time.Time {
	if m.Now != nil {
		return m.Now().UTC()
	}
	return time.Now().UTC()
}

// newID is a candidate id: "mem-" or "skl-" and 8 hex digits (short enough
// to type in `pincer memory approve ID`).
func newID(kind string) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	prefix := "mem-"
	if kind == KindSkill {
		prefix = "skl-"
	}
	return prefix + hex.EncodeToString(b[:])
}

// emit appends an event to the candidate's session log when there is a Log
// and the session exists (a candidate of a deleted session gets none).
func (m *Manager) emit(ctx context.Context, c Candidate, t event.Type, p any) {
	if m.Log == nil || c.SessionID == "" {
		return
	}
	if _, err := m.Store.GetSession(ctx, c.SessionID); err != nil {
		return
	}
	_, _ = m.Log.Emit(context.WithoutCancel(ctx), t, c.SessionID, c.TurnID, p)
}
