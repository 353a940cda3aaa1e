package remote

import (
	"context"

	"pincer/persist"
)

// Checkpoints and blobs over the wire (persist.CheckpointStore): the Client's
// methods and the Server's handlers. PutBlob and the deletes are idempotent;
// a retried AppendCheckpoint first looks for the checkpoint the lost attempt
// may have stored (the session's last one, of the same tool call and time).

// PutBlob stores data under hash unless it is stored.
func (c *Client) PutBlob(ctx context.Context, hash string, data []byte) error {
	return c.call(ctx, "PutBlob", &wireArgs{Hash: hash, Data: data}, nil)
}

// GetBlob returns the blob of hash.
func (c *Client) GetBlob(ctx context.Context, hash string) ([]byte, error) {
	var out []byte
	err := c.call(ctx, "GetBlob", &wireArgs{Hash: hash}, &out)
	return out, err
}

// DeleteBlob deletes the blob of hash.
func (c *Client) DeleteBlob(ctx context.Context, hash string) error {
	return c.call(ctx, "DeleteBlob", &wireArgs{Hash: hash}, nil)
}

// ListBlobs returns every blob's hash and stored size.
func (c *Client) ListBlobs(ctx context.Context) (map[string]int64, error) {
	out := map[string]int64{}
	err := c.call(ctx, "ListBlobs", &wireArgs{}, &out)
	if out == nil {
		out = map[string]int64{}
	}
	return out, err
}

// AppendCheckpoint stores cp as its session's next checkpoint.
func (c *Client) AppendCheckpoint(ctx context.Context, cp persist.Checkpoint) (persist.Checkpoint, error) {
	if cp.Time.IsZero() {
		cp.Time = c.now().UTC() // set here, so a retry sends the same record
	}
	out := cp
	err := c.call(ctx, "AppendCheckpoint", &wireArgs{Checkpoint: &cp}, &out)
	return out, err
}

// ListCheckpoints returns a session's checkpoints (every session's for "").
func (c *Client) ListCheckpoints(ctx context.Context, sessionID string) ([]persist.Checkpoint, error) {
	out := []persist.Checkpoint{}
	err := c.call(ctx, "ListCheckpoints", &wireArgs{ID: sessionID}, &out)
	if out == nil {
		out = []persist.Checkpoint{}
	}
	return out, err
}

// DeleteCheckpoint deletes one checkpoint.
func (c *Client) DeleteCheckpoint(ctx context.Context, sessionID string, seq uint64) error {
	return c.call(ctx, "DeleteCheckpoint", &wireArgs{ID: sessionID, Seq: seq}, nil)
}

func (s *Server) putBlob(ctx context.Context, r request) (any, error) {
	return nil, s.store.PutBlob(ctx, r.args.Hash, r.args.Data)
}

func (s *Server) getBlob(ctx context.Context, r request) (any, error) {
	return s.store.GetBlob(ctx, r.args.Hash)
}

func (s *Server) deleteBlob(ctx context.Context, r request) (any, error) {
	return nil, s.store.DeleteBlob(ctx, r.args.Hash)
}

func (s *Server) listBlobs(ctx context.Context, r request) (any, error) {
	return s.store.ListBlobs(ctx)
}

func (s *Server) appendCheckpoint(ctx context.Context, r request) (any, error) {
	cp := r.args.Checkpoint
	if cp == nil {
		return nil, errMissing("AppendCheckpoint", "checkpoint")
	}
	if r.retry {
		if l, err := s.store.ListCheckpoints(ctx, cp.SessionID); err == nil && len(l) > 0 {
			if last := l[len(l)-1]; last.ToolCallID == cp.ToolCallID && last.Time.Equal(cp.Time) {
				return last, nil
			}
		}
	}
	return s.store.AppendCheckpoint(ctx, *cp)
}

func (s *Server) listCheckpoints(ctx context.Context, r request) (any, error) {
	return s.store.ListCheckpoints(ctx, r.args.ID)
}

func (s *Server) deleteCheckpoint(ctx context.Context, r request) (any, error) {
	return nil, s.store.DeleteCheckpoint(ctx, r.args.ID, r.args.Seq)
}
