package app

import "pincer/persist"

// The names below are the store's as core holds it, for the command line's
// admin commands (pincer sessions, watch, audit, model, rewind): they open the
// store through core (OpenStoreForReading, OpenExistingStore) and print its
// records as they are kept, their JSON included, so they need the types and
// import no persist.

// Store is the session store core holds (persist.Store): what OpenStore,
// OpenExistingStore and OpenStoreForReading return.
type Store = persist.Store

// SessionRecord is a session as it is stored (persist.Session): the record
// core/agent writes — title, directory, model, status, parent and branch links
// — and `pincer sessions --json` prints. (Session is the Backend's view of one,
// with its lease-derived status.)
type SessionRecord = persist.Session

// AuditEntry is one permission decision as core/permission records it
// (persist.AuditEntry), as `pincer audit` lists it.
type AuditEntry = persist.AuditEntry

// ErrCorrupt is the store's error for records it could not decode
// (persist.ErrCorrupt); what could be read is returned with it.
var ErrCorrupt = persist.ErrCorrupt
