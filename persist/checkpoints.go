package persist

import (
	"context"
	"time"
)

// Checkpoint is what one tool call changed in the workspace (issue 15): for
// every file it changed, the version before and after the call. Written by
// core/checkpoint after each file-changing call (Write, Edit and every other
// tool that lists its paths, Bash by a scan of the workspace before and after),
// numbered per session from 1 by AppendCheckpoint, never rewritten; the blobs
// its versions name are kept apart (PutBlob), content-addressed.
type Checkpoint struct {
	SessionID  string    `json:"sessionId"`
	Seq        uint64    `json:"seq"`
	TurnID     string    `json:"turnId,omitempty"`
	ToolCallID string    `json:"toolCallId,omitempty"`
	Tool       string    `json:"tool"`
	Time       time.Time `json:"time"`
	// Scanned says the files were found by a scan of the workspace (a
	// command), not listed by the tool.
	Scanned bool `json:"scanned,omitempty"`
	// Files are the files the call changed, by path (sorted).
	Files []CheckpointFile `json:"files,omitempty"`
	// Noted are the paths (workspace-relative, slash-separated) the call may
	// have changed that were noted, not stored: an ignored directory, a file over
	// the size cap ("path: reason").
	Noted []string `json:"noted,omitempty"`
	// Dirs are the directories (workspace-relative, slash-separated) the call
	// created on the way to the files it lists: absent before it, present
	// after. A rewind removes them when they are empty after the restore.
	Dirs []string `json:"dirs,omitempty"`
}

// CheckpointFile is one changed file of a checkpoint: its path relative to the
// workspace root (slash-separated, never "..") and its versions.
type CheckpointFile struct {
	Path   string      `json:"path"`
	Before FileVersion `json:"before"`
	After  FileVersion `json:"after"`
}

// FileVersion is one version of a file: absent (a tombstone), or its content's
// blob (Hash, the SHA-256 hex of the content; Stored, the blob's size as kept,
// compressed), its size in bytes and mode (fs.FileMode bits: a symlink's
// content is its target). NotStored, when set, says why the content was not
// kept (over the size cap): such a version cannot be restored.
type FileVersion struct {
	Absent    bool   `json:"absent,omitempty"`
	Hash      string `json:"hash,omitempty"`
	Size      int64  `json:"size,omitempty"`
	Stored    int64  `json:"stored,omitempty"`
	Mode      uint32 `json:"mode,omitempty"`
	NotStored string `json:"notStored,omitempty"`
}

// CheckpointStore keeps checkpoints and their blobs. Blobs are keyed by the
// caller's hash (core/checkpoint: SHA-256 of the content, the value its
// compressed bytes): a second PutBlob of a hash stores nothing. Checkpoints
// are per session, numbered from 1; DeleteSession deletes a session's
// checkpoints (its blobs stay until no checkpoint names them and
// DeleteBlob is called, core/checkpoint's eviction).
type CheckpointStore interface {
	// PutBlob stores data under hash unless a blob of that hash is stored.
	PutBlob(ctx context.Context, hash string, data []byte) error
	// GetBlob returns the blob of hash, or an error wrapping ErrNotFound.
	GetBlob(ctx context.Context, hash string) ([]byte, error)
	// DeleteBlob deletes the blob of hash (none stored is not an error).
	DeleteBlob(ctx context.Context, hash string) error
	// ListBlobs returns the hash of every stored blob and its stored size in bytes.
	ListBlobs(ctx context.Context) (map[string]int64, error)
	// AppendCheckpoint stores c as its session's next checkpoint and returns it with Seq set.
	AppendCheckpoint(ctx context.Context, c Checkpoint) (Checkpoint, error)
	// ListCheckpoints returns a session's checkpoints in Seq order, or every
	// session's (sessionID ""), each session's in Seq order.
	ListCheckpoints(ctx context.Context, sessionID string) ([]Checkpoint, error)
	// DeleteCheckpoint deletes one checkpoint (none stored is not an error).
	DeleteCheckpoint(ctx context.Context, sessionID string, seq uint64) error
}
