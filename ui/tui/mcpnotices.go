package tui

import (
	"fmt"
	"strings"

	"pincer/core/mcp"
)

// The MCP servers' states reach the workbench through the pump: watchMCP
// subscribes to the backend's changes (called from the Manager's goroutines)
// and posts each to the inbox, where the /mcp view's snapshot is updated and a
// change worth a person's attention becomes a notice ("mcp: everything ready,
// 14 tools"; "mcp: fs failed: ..."; "mcp: local needs approval: /mcp").

// watchMCP starts following be's MCP servers: the current states, then every
// change, until the workbench stops. Off the event loop (Attach).
func (w *Workbench) watchMCP(be Backend) {
	cancel := be.SubscribeMCP(func(st mcp.ServerState) {
		w.pump.post(func() { w.mcpUpdate(st) })
	})
	states := be.MCPServers()
	w.pump.post(func() {
		for _, st := range states {
			w.mcpUpdate(st)
		}
	})
	go func() {
		<-w.ctx.Done()
		cancel()
	}()
}

// mcpUpdate takes a server's new state into the view's snapshot, with its
// notice. Event loop only.
func (w *Workbench) mcpUpdate(st mcp.ServerState) {
	if w.mcp.servers == nil {
		w.mcp.servers = map[string]mcp.ServerState{}
	}
	prev, had := w.mcp.servers[st.Config.Name]
	w.mcp.servers[st.Config.Name] = st
	var p *mcp.ServerState
	if had {
		p = &prev
	}
	if level, text, ok := mcpNotice(p, st); ok {
		w.notice(level, text)
	}
}

// mcpNotice is the notice of a server's change from prev (nil: first seen) to
// next, if it deserves one: ready (and the tool count when a relist changed
// it), failed with the reason — once: a reconnect attempt failing the same way
// (same failureKind, kept through the connecting in between as LastError)
// only updates /mcp —, needing approval when first seen. Connecting and a
// disabled server say nothing. Pure, for the table test.
func mcpNotice(prev *mcp.ServerState, next mcp.ServerState) (level, text string, ok bool) {
	name := next.Config.Name
	was := mcp.Status("")
	if prev != nil {
		was = prev.Status
	}
	switch next.Status {
	case mcp.StatusReady:
		if was != mcp.StatusReady {
			return "info", fmt.Sprintf("mcp: %s ready, %s", name, countOf(len(next.Tools), "tool")), true
		}
		if len(prev.Tools) != len(next.Tools) {
			return "info", fmt.Sprintf("mcp: %s now offers %s", name, countOf(len(next.Tools), "tool")), true
		}
	case mcp.StatusFailed:
		if prev == nil || was == mcp.StatusReady || failureKind(*prev) != failureKind(next) {
			return "warning", fmt.Sprintf("mcp: %s failed: %s", name, next.Config.Redact(next.Reason)), true
		}
	case mcp.StatusNeedsApproval:
		if prev == nil {
			return "warning", fmt.Sprintf("mcp: %s (from .mcp.json) needs your approval before it starts: /mcp", name), true
		}
	}
	return "", "", false
}

// failureKind is what tells one failure of a server from another: its last
// error (Reason when the state has none) without the retry delay and the
// quoted stderr, which change from attempt to attempt; "" when it has not failed.
func failureKind(st mcp.ServerState) string {
	k := st.LastError
	if k == "" && st.Status == mcp.StatusFailed {
		k = st.Reason
	}
	for _, sep := range []string{"; stderr: ", "; log: ", "; reconnecting in "} {
		if i := strings.Index(k, sep); i >= 0 {
			k = k[:i]
		}
	}
	return k
}
