package mcp

import (
	"context"
	"strings"
	"time"
)

// Probe connects to cfg once, lists what it offers and disconnects, for
// `pincer mcp list` and `pincer mcp get` (as `claude mcp list` checks each
// server): the state it reached, StatusReady with its tools, prompts and
// resources, or StatusFailed with the reason; an unapproved server is not
// started (StatusNeedsApproval); one that has not answered when timeout
// passes is StatusFailed "timed out after TIMEOUT (Options.TimeoutHint)". It waits at most timeout (0: the Options'
// ConnectTimeout) or until ctx ends. The tools are not kept anywhere.
func Probe(ctx context.Context, cfg ServerConfig, opts Options, timeout time.Duration) ServerState {
	opts.Registry = nil
	if timeout > 0 {
		opts.ConnectTimeout = timeout
	}
	m := NewManager(opts)
	defer m.Close()
	m.Set(cfg)
	m.WaitReady(ctx, m.opts.ConnectTimeout+time.Second)
	st, _ := m.State(cfg.Name)
	if i := strings.LastIndex(st.Reason, "; reconnecting in "); i >= 0 {
		st.Reason = st.Reason[:i] // a probe does not retry
	}
	if st.Status == StatusConnecting { // no answer in time (the attempt is still being torn down)
		st.Status, st.Reason = StatusFailed, "timed out after "+m.opts.ConnectTimeout.String()
		if opts.TimeoutHint != "" {
			st.Reason += " (" + opts.TimeoutHint + ")"
		}
		st.LastError = st.Reason
	}
	return st
}
