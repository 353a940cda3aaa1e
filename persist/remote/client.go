package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/persist"
	"pincer/persist/internal/record"
)

// The Store methods of Client: each is one request (conn.go). Records are
// JSON on the wire exactly as the store keeps them, so a Client returns the same
// values as the store it reaches.

var (
	_ persist.Store         = (*Client)(nil)
	_ event.SequencingStore = (*Client)(nil)
	_ event.WaitingStore    = (*Client)(nil)
)

// PutSession creates or replaces a session record.
func (c *Client) PutSession(ctx context.Context, s persist.Session) error {
	return c.call(ctx, "PutSession", &wireArgs{Session: &s}, nil)
}

// GetSession returns a session or an error wrapping persist.ErrNotFound.
func (c *Client) GetSession(ctx context.Context, id string) (persist.Session, error) {
	var s persist.Session
	err := c.call(ctx, "GetSession", &wireArgs{ID: id}, &s)
	return s, err
}

// ListSessions returns up to limit sessions, newest first (limit <= 0: all).
func (c *Client) ListSessions(ctx context.Context, limit int) ([]persist.Session, error) {
	var out []persist.Session
	err := c.call(ctx, "ListSessions", &wireArgs{Limit: limit}, &out)
	return out, err
}

// DeleteSession deletes a session and everything stored under its id.
func (c *Client) DeleteSession(ctx context.Context, id string) error {
	return c.call(ctx, "DeleteSession", &wireArgs{ID: id}, nil)
}

// AppendMessage stores m as the session's next message and returns it with Seq
// set. The message gets its ID (and CreatedAt) here, before it is sent, so that a
// retry after a lost connection finds it instead of storing it twice.
func (c *Client) AppendMessage(ctx context.Context, m message.Message) (message.Message, error) {
	if m.ID == "" {
		m.ID = record.NewMessageID()
	}
	if m.CreatedAt.IsZero() {
		m.CreatedAt = c.now().UTC()
	}
	var out message.Message
	err := c.call(ctx, "AppendMessage", &wireArgs{Message: &m}, &out)
	return out, err
}

// ListMessages returns every message of a session in Seq order.
func (c *Client) ListMessages(ctx context.Context, sessionID string) ([]message.Message, error) {
	var out []message.Message
	err := c.call(ctx, "ListMessages", &wireArgs{ID: sessionID}, &out)
	if out == nil && err == nil {
		out = []message.Message{}
	}
	return out, err
}

// AppendEvent stores ev under (ev.SessionID, ev.Sequence).
func (c *Client) AppendEvent(ctx context.Context, ev event.Event) error {
	return c.call(ctx, "AppendEvent", &wireArgs{Event: &ev}, nil)
}

// AppendEventNext stores ev as the session's next event, numbered by the daemon,
// and returns it. A zero Timestamp is set to now (UTC) here, before it is sent.
func (c *Client) AppendEventNext(ctx context.Context, ev event.Event) (event.Event, error) {
	if ev.Timestamp.IsZero() {
		ev.Timestamp = c.now().UTC()
	}
	var r appended
	if err := c.call(ctx, "AppendEventNext", &wireArgs{Event: &ev}, &r); err != nil {
		return event.Event{}, err
	}
	ev.Sequence, ev.Timestamp = r.Sequence, r.Timestamp
	return ev, nil
}

// ListEvents returns up to limit events of a session after a sequence. The
// daemon sends the records as it stores them; each is read here in one pass
// (event.DecodeList), its payload left for Event.Payload. A record that does
// not read as an event is skipped and counted with those the daemon skipped
// (a *persist.CorruptError next to the others).
func (c *Client) ListEvents(ctx context.Context, sessionID string, after uint64, limit int) ([]event.Event, error) {
	var raw json.RawMessage
	err := c.call(ctx, "ListEvents", &wireArgs{ID: sessionID, After: after, Limit: limit}, &raw)
	var out []event.Event
	if len(raw) > 0 {
		evs, skipped, derr := event.DecodeList(raw)
		if derr != nil {
			return nil, fmt.Errorf("persist: ListEvents: decode reply: %w", derr)
		}
		out = evs
		if skipped > 0 {
			err = addCorrupt(err, sessionID, skipped)
		}
	}
	if out == nil && (err == nil || errors.Is(err, persist.ErrCorrupt)) {
		out = []event.Event{}
	}
	return out, err
}

// addCorrupt adds n records skipped here to the daemon's report err (nil or
// a *persist.CorruptError of the session's events).
func addCorrupt(err error, sessionID string, n int) error {
	var ce *persist.CorruptError
	if errors.As(err, &ce) {
		return &persist.CorruptError{Kind: ce.Kind, SessionID: ce.SessionID, Count: ce.Count + n}
	}
	if err != nil {
		return err
	}
	return &persist.CorruptError{Kind: "event", SessionID: sessionID, Count: n}
}

// LastEventSequence returns the highest stored sequence of a session, 0 if none.
func (c *Client) LastEventSequence(ctx context.Context, sessionID string) (uint64, error) {
	var seq uint64
	err := c.call(ctx, "LastEventSequence", &wireArgs{ID: sessionID}, &seq)
	return seq, err
}

// WaitEvents returns nil as soon as the session has an event after a sequence,
// by any process, or ctx's error when ctx ends first. It long-polls the daemon.
func (c *Client) WaitEvents(ctx context.Context, sessionID string, after uint64) error {
	for {
		var r waitResult
		if err := c.call(ctx, "WaitEvents", &wireArgs{ID: sessionID, After: after, Wait: maxWait}, &r); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		if r.Ready {
			return nil
		}
	}
}

// AcquireLease gives the session to owner for ttl if it is free, expired or
// owner's. The daemon ties the lease to this client: if the client's process
// ends while holding it, the daemon releases it at once.
func (c *Client) AcquireLease(ctx context.Context, sessionID, owner string, ttl time.Duration) (bool, persist.Lease, error) {
	c.waitAttached(ctx)
	var r leaseReply
	err := c.call(ctx, "AcquireLease", &wireArgs{ID: sessionID, Owner: owner, TTL: ttl}, &r)
	if err == nil && r.OK {
		c.noteLease(sessionID, owner, true)
	}
	return r.OK, r.Lease, err
}

// RenewLease extends owner's lease by ttl; false when owner no longer holds it.
func (c *Client) RenewLease(ctx context.Context, sessionID, owner string, ttl time.Duration) (bool, error) {
	var r leaseReply
	err := c.call(ctx, "RenewLease", &wireArgs{ID: sessionID, Owner: owner, TTL: ttl}, &r)
	if err == nil {
		c.noteLease(sessionID, owner, r.OK)
	}
	return r.OK, err
}

// ReleaseLease frees the session if owner holds it.
func (c *Client) ReleaseLease(ctx context.Context, sessionID, owner string) error {
	err := c.call(ctx, "ReleaseLease", &wireArgs{ID: sessionID, Owner: owner}, nil)
	if err == nil {
		c.noteLease(sessionID, owner, false)
	}
	return err
}

// AppendAudit appends e to its session's audit trail. A zero Time is set to now
// (UTC) here, before it is sent, so that a retry finds it.
func (c *Client) AppendAudit(ctx context.Context, e persist.AuditEntry) error {
	if e.Time.IsZero() {
		e.Time = c.now().UTC()
	}
	return c.call(ctx, "AppendAudit", &wireArgs{Audit: &e}, nil)
}

// ListAudit returns up to limit audit entries, newest first.
func (c *Client) ListAudit(ctx context.Context, sessionID string, limit int) ([]persist.AuditEntry, error) {
	var out []persist.AuditEntry
	err := c.call(ctx, "ListAudit", &wireArgs{ID: sessionID, Limit: limit}, &out)
	return out, err
}

// PutSessionRules replaces the permission rules of a session.
func (c *Client) PutSessionRules(ctx context.Context, sessionID string, rules []string) error {
	if rules == nil {
		rules = []string{}
	}
	return c.call(ctx, "PutSessionRules", &wireArgs{ID: sessionID, Rules: rules}, nil)
}

// GetSessionRules returns a session's permission rules (an empty list if none).
func (c *Client) GetSessionRules(ctx context.Context, sessionID string) ([]string, error) {
	out := []string{}
	err := c.call(ctx, "GetSessionRules", &wireArgs{ID: sessionID}, &out)
	if out == nil {
		out = []string{}
	}
	return out, err
}

// Ping asks the daemon who it is.
func (c *Client) Ping(ctx context.Context) (PingReply, error) {
	var r PingReply
	err := c.call(ctx, "Ping", &wireArgs{}, &r)
	return r, err
}
