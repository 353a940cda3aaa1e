// Package storetest is the contract suite of persist.Store: every
// implementation runs it (persist/badger on disk and in memory,
// persist/memory, persist/remote over a Server of each) and so keeps the
// contract written on persist.Store — ordering, numbering, leases, the audit
// trail, deletion, corrupt records reported and skipped. It imports testing,
// so it is a package of its own that pincer's binary never links.
//
// An implementation's test gives Run a Harness: how to open an empty store,
// and the hooks the suite needs (a settable clock, reopening a durable store,
// writing a raw record to damage it). A case whose hook is nil is skipped.
package storetest

import (
	"testing"
	"time"

	"pincer/persist"
)

// Harness opens one kind of store for the suite.
type Harness struct {
	// Name names the store in the test names.
	Name string
	// Open returns a new, empty store, closed when the test ends (Open
	// registers that with t.Cleanup).
	Open func(t testing.TB) persist.Store
	// Reopen closes s and opens its data again, as a new process would; nil
	// for a store that keeps nothing (the cases then skip their reopen step).
	Reopen func(t testing.TB, s persist.Store) persist.Store
	// SetClock makes s read the time (CreatedAt, audit Time, lease expiry)
	// from now; it is called before s is shared with goroutines.
	SetClock func(s persist.Store, now func() time.Time)
	// WriteRaw stores value under key (the layout of persist/internal/record)
	// as it is, bypassing encoding; nil skips the corrupt-record cases.
	WriteRaw func(t testing.TB, s persist.Store, key, value []byte)
	// Keys lists every key s holds; nil skips the check that a deleted
	// session leaves no key behind.
	Keys func(t testing.TB, s persist.Store) [][]byte
}

// cases are the suite's cases, by name.
var cases = []struct {
	name string
	run  func(t *testing.T, h Harness)
}{
	{"SessionsNewestFirst", testSessionsNewestFirst},
	{"Checkpoints", testCheckpoints},
	{"Candidates", testCandidates},
	{"ConcurrentDecideCandidate", testConcurrentDecideCandidate},
	{"GetSessionNotFound", testGetSessionNotFound},
	{"InvalidSessionID", testInvalidSessionID},
	{"MessageSequence", testMessageSequence},
	{"ConcurrentAppendMessage", testConcurrentAppendMessage},
	{"Closed", testClosed},
	{"AuditTrail", testAuditTrail},
	{"ConcurrentAppendAudit", testConcurrentAppendAudit},
	{"SessionRules", testSessionRules},
	{"AuditCorruptEntrySkipped", testAuditCorruptEntrySkipped},
	{"DeleteSession", testDeleteSession},
	{"DeleteSessionClosed", testDeleteSessionClosed},
	{"Events", testEvents},
	{"EventLogOverStore", testEventLogOverStore},
	{"ConcurrentDuplicateEvent", testConcurrentDuplicateEvent},
	{"LeaseLifecycle", testLeaseLifecycle},
	{"LeaseExpiresInRealTime", testLeaseExpiresInRealTime},
	{"ConcurrentAcquireLease", testConcurrentAcquireLease},
	{"GetLease", testGetLease},
	{"AppendEventNextAndWait", testAppendEventNextAndWait},
	{"CorruptRecordsAreSkippedAndReported", testCorruptRecordsAreSkippedAndReported},
	{"PromptHistory", testPromptHistory},
	{"PromptHistoryBounded", testPromptHistoryBounded},
	{"Drafts", testDrafts},
}

// Run runs every case of the suite against the store h opens, each as a
// subtest named h.Name/<case>.
func Run(t *testing.T, h Harness) {
	t.Run(h.Name, func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) { c.run(t, h) })
		}
	})
}

// Hooks, with the skipping of a case whose hook is missing.

func (h Harness) reopen(t testing.TB, s persist.Store) persist.Store {
	t.Helper()
	if h.Reopen == nil {
		return s
	}
	return h.Reopen(t, s)
}

func (h Harness) setClock(t testing.TB, s persist.Store, now func() time.Time) {
	t.Helper()
	if h.SetClock == nil {
		t.Skipf("%s has no settable clock", h.Name)
	}
	h.SetClock(s, now)
}
