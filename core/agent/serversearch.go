package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/core/permission"
	"pincer/core/provider"
)

// The server-side web search (Config.WebSearch): the provider's server runs the
// searches inside the model call, so pincer cannot ask about one search. It is
// declared only when the permission mode or a rule allows WebSearch without asking
// (as Claude Code: WebSearch needs permission), and each search the server ran is
// recorded in the audit trail under that decision and shown in the timeline as a
// WebSearch call (tool.started with the query, tool.completed with the result
// titles and URLs).

// webSearchTool is the tool name a server-side search is decided on, shown and
// audited under (Claude Code's WebSearch).
const webSearchTool = "WebSearch"

// stopPauseTurn is the stop reason of an Anthropic reply whose server-side tool
// run was paused mid-turn ("pause_turn", Anthropic's Messages API docs: "provide
// the response back as-is in a subsequent request to let Claude continue"): the
// turn calls the model again with the reply as its last message. Each pause
// costs one of the turn's model calls (--max-turns bounds them).
const stopPauseTurn = "pause_turn"

// Block types of the server-side web search, as message.PartServerBlock's
// ToolName carries them.
const (
	serverToolUse   = "server_tool_use"
	serverSearchHit = "web_search_tool_result"
)

// serverSearch is the server-side web search of the next model call and the
// decision that allows it: nil when Config.WebSearch is unset, the text protocol
// is on, the mode and rules do not allow WebSearch, or the session has used its
// cap (MaxUses counts the searches of the whole stored transcript, so --continue
// keeps counting).
func (t *turn) serverSearch(text bool) (*provider.WebSearch, permission.Decision) {
	ws := t.a.cfg.WebSearch
	if ws == nil || text {
		return nil, permission.Decision{}
	}
	in := t.searchInput("")
	d := permission.Evaluate(t.a.Mode(), t.rules, in)
	if d.Behavior != permission.Allow {
		return nil, d
	}
	left := ws.MaxUses - serverSearches(t.msgs)
	if left <= 0 {
		return nil, d
	}
	out := *ws
	out.MaxUses = left
	return &out, d
}

// searchInput is the permission input of a server-side search of query.
func (t *turn) searchInput(query string) permission.Input {
	in := t.fileInput(webSearchTool, permission.KindFetch, nil)
	if query != "" {
		in.Summary = fmt.Sprintf("WebSearch %q", query)
	}
	return in
}

// serverSearches counts the server-side web searches in msgs (their
// server_tool_use blocks).
func serverSearches(msgs []message.Message) int {
	n := 0
	for _, m := range msgs {
		for _, p := range m.Parts {
			if p.Type == message.PartServerBlock && p.ToolName == serverToolUse {
				n++
			}
		}
	}
	return n
}

// serverBlock keeps one server block in the reply's parts and, once the deltas
// before it are out, shows it: a search call as tool.started (and its audit
// entry under d), its results as tool.completed.
func (t *turn) serverBlock(bg context.Context, co *coalescer, parts *partBuilder, b message.Part, d permission.Decision, storeErr *error) {
	parts.addPart(b)
	fail := func(err error) {
		if err != nil && *storeErr == nil {
			*storeErr = err
		}
	}
	switch b.ToolName {
	case serverToolUse:
		var in struct {
			Query string `json:"query"`
		}
		_ = json.Unmarshal([]byte(b.Input), &in)
		pin := t.searchInput(strings.TrimSpace(in.Query))
		co.then(func() {
			t.auditSearch(bg, b.ToolCallID, pin, d)
			fail(t.emit(bg, event.ToolStarted, event.ToolStartedData{ToolCallID: b.ToolCallID, Name: webSearchTool,
				Input: b.Input, Summary: pin.Summary}))
		})
	case serverSearchHit:
		co.then(func() {
			fail(t.emit(bg, event.ToolCompleted, event.ToolCompletedData{ToolCallID: b.ToolCallID, Name: webSearchTool,
				Output: b.Text, IsError: b.IsError}))
		})
	}
}

// auditSearch records one server-side search in the audit trail: the decision
// that let the search tool be declared.
func (t *turn) auditSearch(ctx context.Context, callID string, in permission.Input, d permission.Decision) {
	e := permission.NewAuditEntry(t.sess.ID, t.id, callID, in, d, time.Now().UTC())
	e.Origin = "server:" + t.a.currentProvider().Name() // the provider's server ran it
	if err := t.a.cfg.Store.AppendAudit(ctx, e); err != nil {
		t.notice(ctx, "warning", "permission", "audit trail: "+err.Error())
	}
}
