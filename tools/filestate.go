package tools

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"sync"
	"time"
)

// FileState remembers, per absolute path, that the model read (or wrote) a file in
// this session and what the file looked like then. Write and Edit consult it, as
// Claude Code's do: an existing file must have been read before it is changed, and
// a file changed on disk since that read is treated with suspicion. It is safe for
// concurrent use; the zero value is not usable, use NewFileState.
type FileState struct {
	mu      sync.Mutex
	files   map[string]FileRecord
	outside map[string][]string // tool call ID -> real paths outside the workspace it may read
	preview map[string]string   // tool call ID -> fingerprint of the change its Preview showed
}

// FileRecord is what FileState knows about one file.
type FileRecord struct {
	// Hash is the SHA-256 of the file's bytes (hex), as returned by HashContent.
	Hash string
	// ModTime is the file's modification time when it was recorded.
	ModTime time.Time
	// RecordedAt is when the read or write happened.
	RecordedAt time.Time
}

// NewFileState returns an empty FileState.
func NewFileState() *FileState {
	return &FileState{files: map[string]FileRecord{}}
}

// HashContent returns the hex SHA-256 of b, the form FileRecord.Hash uses.
func HashContent(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Record notes that the file at the absolute path abs was seen with this hash and
// modification time, replacing any earlier record.
func (s *FileState) Record(abs, hash string, modTime time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[abs] = FileRecord{Hash: hash, ModTime: modTime, RecordedAt: time.Now()}
}

// RecordContent is Record for content just read from or written to abs, taking the
// modification time from the file system (zero when it cannot be read).
func (s *FileState) RecordContent(abs string, content []byte) {
	var mod time.Time
	if fi, err := os.Stat(abs); err == nil {
		mod = fi.ModTime()
	}
	s.Record(abs, HashContent(content), mod)
}

// Lookup returns the record for abs and whether there is one.
func (s *FileState) Lookup(abs string) (FileRecord, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.files[abs]
	return r, ok
}

// Forget drops the record for abs, so the file must be read again before a change.
func (s *FileState) Forget(abs string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.files, abs)
}

// Unchanged reports whether content (the file's current bytes) is what was recorded
// for abs. It is false when there is no record.
func (s *FileState) Unchanged(abs string, content []byte) bool {
	r, ok := s.Lookup(abs)
	return ok && r.Hash == HashContent(content)
}

// GrantOutside notes that the permission layer allowed the tool call callID
// (by a person's approval or an allow rule, never by a mode's default) to read
// paths, real locations outside the workspace and its added directories. Read
// honours a grant only for that call and that exact path
// (OutsideGranted); RevokeOutside drops the call's grants once it has run.
// Writes outside the workspace are never granted: the workspace guard holds
// for them in every mode.
func (s *FileState) GrantOutside(callID string, paths ...string) {
	if callID == "" || len(paths) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.outside == nil {
		s.outside = map[string][]string{}
	}
	s.outside[callID] = append(s.outside[callID], paths...)
}

// OutsideGranted reports whether GrantOutside allowed the call callID to read
// the real path abs.
func (s *FileState) OutsideGranted(callID, abs string) bool {
	if callID == "" {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.outside[callID] {
		if p == abs {
			return true
		}
	}
	return false
}

// RevokeOutside drops every grant of the call callID.
func (s *FileState) RevokeOutside(callID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.outside, callID)
}

// recordPreview keeps the fingerprint of the change the Preview of tool call id
// showed (fileChange.fingerprint); a nil FileState keeps nothing.
func (s *FileState) recordPreview(id, fingerprint string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.preview == nil {
		s.preview = map[string]string{}
	}
	s.preview[id] = fingerprint
}

// previewed reports whether the Preview of tool call id showed exactly the
// change with fingerprint, and forgets it (one write per approval). A nil
// FileState, or a call never previewed, reports false.
func (s *FileState) previewed(id, fingerprint string) bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	fp, ok := s.preview[id]
	delete(s.preview, id)
	return ok && fp == fingerprint
}
