package web

import (
	"context"
	"sync"

	"pincer/core/event"
)

// Usage is a session's token use and cost summed over its usage events (one
// per model call), as the workbench's status line sums them. CostUSD is nil
// when a call's cost is unknown (the catalog does not price its model).
type Usage struct {
	InputTokens      int64    `json:"inputTokens"`
	OutputTokens     int64    `json:"outputTokens"`
	CacheReadTokens  int64    `json:"cacheReadTokens"`
	CacheWriteTokens int64    `json:"cacheWriteTokens"`
	CostUSD          *float64 `json:"costUsd"`
}

// logFold is what the API reads from a session's log: the usage, the last
// mode.changed's mode ("" when none), the last sequence, and the requests
// the log asked that no permission.resolved (nor a permission.answered
// already given) closed — the pending list of a session another process
// runs (remote.go).
type logFold struct {
	Usage        Usage
	costUnknown  bool
	Mode         string
	LastSequence uint64
	requests     map[string]Approval // by request ID; copied out by foldCache.of
}

// add folds one event.
func (f *logFold) add(ev event.Event) {
	f.LastSequence = ev.Sequence
	switch ev.Type {
	case event.UsageReported:
		var d event.UsageData
		if ev.Decode(&d) != nil {
			return
		}
		u := &f.Usage
		u.InputTokens += d.InputTokens
		u.OutputTokens += d.OutputTokens
		u.CacheReadTokens += d.CacheReadTokens
		u.CacheWriteTokens += d.CacheWriteTokens
		switch {
		case d.CostUSD == nil:
			f.costUnknown = true
		case !f.costUnknown:
			c := *d.CostUSD
			if u.CostUSD != nil {
				c += *u.CostUSD
			}
			u.CostUSD = &c
		}
		if f.costUnknown {
			u.CostUSD = nil
		}
	case event.ModeChanged:
		var d event.ModeChangedData
		if ev.Decode(&d) == nil {
			f.Mode = d.Mode
		}
	case event.PermissionRequested:
		var d event.PermissionRequestedData
		if ev.Decode(&d) != nil || d.RequestID == "" {
			return
		}
		if f.requests == nil {
			f.requests = map[string]Approval{}
		}
		f.requests[d.RequestID] = Approval{RequestID: d.RequestID, SessionID: ev.SessionID, ToolCallID: d.ToolCallID,
			Name: d.Name, Summary: d.Summary, Reason: d.Reason, Command: d.Command, Diff: d.Diff,
			PreviewError: d.PreviewError, seq: ev.Sequence}
	case event.TurnStarted: // a request never outlives its turn (one a crashed process left)
		f.requests = nil
	case event.PermissionResolved:
		var d event.PermissionResolvedData
		if ev.Decode(&d) == nil {
			delete(f.requests, d.RequestID)
		}
	case event.PermissionAnswered: // the first answer is the one the running process takes
		var d event.PermissionAnsweredData
		if ev.Decode(&d) == nil {
			delete(f.requests, d.RequestID)
		}
	}
}

// foldCache keeps each session's fold and extends it with the events
// appended since (a session's log is read once, then only its tail).
type foldCache struct {
	log *event.Log

	mu    sync.Mutex
	folds map[string]*foldEntry
}

// foldEntry is one session's fold, its own lock held while it reads.
type foldEntry struct {
	mu   sync.Mutex
	fold logFold
}

func newFoldCache(log *event.Log) *foldCache {
	return &foldCache{log: log, folds: map[string]*foldEntry{}}
}

// of returns the fold of sessionID up to its last stored event.
func (c *foldCache) of(ctx context.Context, sessionID string) (logFold, error) {
	c.mu.Lock()
	e := c.folds[sessionID]
	if e == nil {
		e = &foldEntry{}
		c.folds[sessionID] = e
	}
	c.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	for {
		evs, err := c.log.Read(ctx, sessionID, e.fold.LastSequence, 1024)
		if err != nil {
			return e.fold, err
		}
		for _, ev := range evs {
			e.fold.add(ev)
		}
		if len(evs) < 1024 {
			out := e.fold
			out.requests = nil
			if len(e.fold.requests) > 0 {
				out.requests = make(map[string]Approval, len(e.fold.requests))
				for id, a := range e.fold.requests {
					out.requests[id] = a
				}
			}
			return out, nil
		}
	}
}
