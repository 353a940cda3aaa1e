package remote

import (
	"context"

	"pincer/persist"
)

// GetLease returns the session's live lease; found is false when it is free.
// It only reads: the daemon ties nothing to this client.
func (c *Client) GetLease(ctx context.Context, sessionID string) (persist.Lease, bool, error) {
	var r leaseReply
	err := c.call(ctx, "GetLease", &wireArgs{ID: sessionID}, &r)
	return r.Lease, r.OK, err
}

// getLease serves GetLease: OK is whether a live lease was found.
func (s *Server) getLease(ctx context.Context, r request) (any, error) {
	l, found, err := s.store.GetLease(ctx, r.args.ID)
	return leaseReply{OK: found, Lease: l}, err
}
