package app

import (
	"context"
	"fmt"

	"pincer/core/agent"
	"pincer/core/config"
	"pincer/core/memory"
)

// memoryObserver proposes memories from a completed turn's prompt (issue
// 16): an explicit request ("remember that …": memory.Request) always, a
// stated preference or correction (memory.Preference) when [memory] observe
// is on and the session is under its limit. It decides on the literal text
// the person typed, never on the model's output; it proposes, never writes.
type memoryObserver struct {
	set config.MemorySettings
	run func() *Run
}

// ObserveTurn proposes at most one memory for the turn; a proposal refused
// is a notice.
func (o *memoryObserver) ObserveTurn(ctx context.Context, ct agent.CompletedTurn) {
	r := o.run()
	if !o.set.Enabled() || r == nil || r.Memory == nil || ct.ParentID != "" {
		return
	}
	origin := memory.OriginRequest
	text, ok := memory.Request(ct.Input)
	if !ok {
		if !o.set.Observe() {
			return
		}
		if text, ok = memory.Preference(ct.Input); !ok {
			return
		}
		origin = memory.OriginObserver
		if r.underMemoryLimit(ctx, ct.SessionID) != nil {
			return
		}
	}
	p, err := memory.FromText(text)
	if err == nil && r.turnProposed(ctx, ct, p.Name) {
		return // the model's Remember call of this turn proposed it
	}
	if err == nil {
		p.SessionID, p.Turn, p.TurnID, p.Origin = ct.SessionID, ct.Number, ct.TurnID, origin
		var c memory.Candidate
		if c, err = r.Memory.Propose(ctx, p); err == nil {
			ct.Notice("info", "memory", fmt.Sprintf("proposed the memory %q for your review as %s (approve it to use it from the next session)", c.Name, c.ID))
			return
		}
	}
	if origin == memory.OriginRequest {
		ct.Notice("warning", "memory", "what you asked to remember was not proposed: "+err.Error())
	}
}

// turnProposed reports whether turn ct already proposed a memory named name.
func (r *Run) turnProposed(ctx context.Context, ct agent.CompletedTurn, name string) bool {
	cs, err := r.Memory.Store.ListCandidates(ctx, memory.Filter{Kind: memory.KindMemory, SessionID: ct.SessionID})
	if err != nil {
		return false
	}
	for _, c := range cs {
		if c.TurnID == ct.TurnID && memory.FileStem(c.Name) == memory.FileStem(name) {
			return true
		}
	}
	return false
}
