package agent

import (
	"fmt"
	"strings"

	"pincer/core/message"
	"pincer/core/permission"
	"pincer/core/prompt"
	"pincer/core/provider"
	"pincer/tools"
)

// Deferred tools, as Claude Code's tool search. Per model call the agent
// offers every tool that is not deferred, ToolSearch when at least one tool is
// deferred, and the deferred tools this session has loaded; the deferred tools
// not loaded yet are announced by name in the dynamic prompt segment (never the
// static, cached one). Which tools are deferred is tools.Deferred over the
// tools registered at that call (MCP tools come and go), the agent's
// Config.ToolSearch policy and the model's context window.
//
// The loaded set is rebuilt from the stored transcript, not kept apart: a
// tool is loaded when a successful ToolSearch result of the session names it
// in its <functions> block (tools.LoadedByResult). The stored transcript is
// the whole truth (invariant 3), so a resumed session, another process taking
// the session over and a compacted view (which drops the old result from what
// the model reads, never from the store) all keep what was loaded.

// offer is what one model call offers the model.
type offer struct {
	specs []provider.ToolSpec // the definitions sent with the request
	// deferred are the deferred tools (loaded or not): what ToolSearch searches.
	deferred []tools.Spec
	// pending names the deferred tools not loaded yet: a call of one is refused
	// with notLoadedResult, and the dynamic prompt announces them.
	pending map[string]bool
	// announce is the dynamic prompt's lines naming the pending tools ("": none).
	announce string
}

// notLoadedResult is the tool result of a call of a deferred tool not loaded yet.
func notLoadedResult(name string) string {
	return fmt.Sprintf("%s%s is a deferred tool that is not loaded yet, so it was not run. Load it first with %s (query \"select:%s\"), then call it again.",
		failedPrefix, name, tools.ToolSearchName, name)
}

// makeOffer decides the tools of a model call: the registry's tools as they are
// now, minus those plan mode hides, split by tools.Deferred under the agent's
// policy and window, with loaded the names this session has loaded. A deferred
// tool that a rule denies outright (no specifier: `mcp__srv__tool`, `mcp__srv`)
// is neither offered, announced nor searchable; a call of it is still denied
// by that rule. Without a registered ToolSearch nothing is deferred.
func (a *Agent) makeOffer(loaded map[string]bool, deniedOutright func(tools.Spec) bool) offer {
	mode := a.Mode()
	var all []tools.Spec
	for _, tl := range a.cfg.Tools.All() {
		sp := tl.Spec()
		if mode == permission.ModePlan && permission.HiddenInPlan(string(sp.Kind)) {
			continue // plan mode is read-only: tools that write are not offered
		}
		all = append(all, sp)
	}
	var deferred map[string]bool
	if _, ok := a.cfg.Tools.Get(tools.ToolSearchName); ok {
		deferred = tools.Deferred(all, a.cfg.ToolSearch, a.cfg.ContextWindow)
	}
	var o offer
	var loadedSpecs []provider.ToolSpec
	for _, sp := range all {
		ps := provider.ToolSpec{Name: sp.Name, Description: sp.Description, Schema: sp.Schema}
		switch {
		case sp.Name == tools.ToolSearchName:
			if len(deferred) > 0 {
				o.specs = append(o.specs, ps)
			}
		case !deferred[sp.Name]:
			o.specs = append(o.specs, ps)
		case deniedOutright != nil && deniedOutright(sp):
			// denied whatever its input: nothing to load
		case loaded[sp.Name]:
			o.deferred = append(o.deferred, sp)
			loadedSpecs = append(loadedSpecs, ps) // after the others: the request's prefix stays put
		default:
			o.deferred = append(o.deferred, sp)
			if o.pending == nil {
				o.pending = map[string]bool{}
			}
			o.pending[sp.Name] = true
		}
	}
	o.specs = append(o.specs, loadedSpecs...)
	o.announce = announceDeferred(o.deferred, o.pending)
	return o
}

// announceDeferred is the dynamic prompt's block naming the pending deferred
// tools, one line each with its description's first line cut to
// announceDescRunes; "" when none is pending.
func announceDeferred(deferred []tools.Spec, pending map[string]bool) string {
	if len(pending) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("# Deferred tools\n")
	fmt.Fprintf(&b, "These tools are available but not loaded: their definitions are not in your tool list. Load the ones you need with %s (query \"select:NAME1,NAME2\", or keywords) before calling them.\n", tools.ToolSearchName)
	for _, sp := range deferred {
		if !pending[sp.Name] {
			continue
		}
		b.WriteString("- " + sp.Name)
		if d := shortDescription(sp.Description); d != "" {
			b.WriteString(": " + d)
		}
		b.WriteString("\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// announceDescRunes is how much of a deferred tool's description its announced
// line keeps.
const announceDescRunes = 100

// shortDescription is the first non-empty line of d, cut to announceDescRunes.
func shortDescription(d string) string {
	for _, line := range strings.Split(d, "\n") {
		line = strings.Join(strings.Fields(line), " ")
		if line == "" {
			continue
		}
		if r := []rune(line); len(r) > announceDescRunes {
			line = string(r[:announceDescRunes-1]) + "…"
		}
		return line
	}
	return ""
}

// loadedTools adds to loaded the tools the ToolSearch results among msgs
// loaded (successful results only), and returns it (a new map when loaded is nil
// and something was loaded).
func loadedTools(loaded map[string]bool, msgs []message.Message) map[string]bool {
	for _, m := range msgs {
		if m.Role != message.RoleTool {
			continue
		}
		r, ok := m.ToolResult()
		if !ok || r.ToolName != tools.ToolSearchName || r.IsError {
			continue
		}
		for _, n := range tools.LoadedByResult(r.Text) {
			if loaded == nil {
				loaded = map[string]bool{}
			}
			loaded[n] = true
		}
	}
	return loaded
}

// offer returns this model call's offer, deciding it once per model call (the
// loaded set grows only between calls, from the results stored since).
func (t *turn) offer() offer {
	if t.offerRead && t.offerIter == t.iter {
		return t.cur
	}
	t.loaded = loadedTools(t.loaded, t.msgs[t.loadedScan:])
	t.loadedScan = len(t.msgs)
	t.cur = t.a.makeOffer(t.loaded, t.deniedOutright)
	t.offerIter, t.offerRead = t.iter, true
	return t.cur
}

// deniedOutright reports whether a rule of this turn denies every call of the
// tool sp, whatever its input (a deny rule naming it or its MCP server with no
// specifier).
func (t *turn) deniedOutright(sp tools.Spec) bool {
	d := permission.Evaluate(t.a.Mode(), t.rules, t.fileInput(sp.Name, string(sp.Kind), nil))
	return d.Behavior == permission.Deny && d.Rule != ""
}

// withAnnouncement appends the offer's announcement to the dynamic prompt
// dynamic (the session's stored one when dynamic is empty).
func withAnnouncement(msgs []message.Message, dynamic, announce string) string {
	if announce == "" {
		return dynamic
	}
	if dynamic == "" {
		for _, m := range msgs {
			if m.Role == message.RoleSystem {
				_, dynamic, _ = prompt.Split(m.Text())
				break
			}
		}
	}
	dynamic = strings.TrimRight(dynamic, "\n")
	if strings.TrimSpace(dynamic) != "" {
		dynamic += "\n\n"
	}
	return dynamic + announce + "\n"
}
