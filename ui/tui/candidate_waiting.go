package tui

import (
	"context"
	"fmt"

	"pincer/core/memory"
)

// waitingBackend is the part of a Backend that lists the project's pending
// candidates (app.Backend has it).
type waitingBackend interface {
	PendingCandidates(ctx context.Context, sessionID string) ([]memory.Candidate, error)
}

// noteWaitingCandidates says once, when the workbench attaches, how many
// candidates of this project's other sessions still wait (a headless run's,
// an earlier workbench's): they are in those sessions' logs, not in this
// queue, so the notice names where they are listed and decided. Off the
// event loop.
func (w *Workbench) noteWaitingCandidates(be Backend, sessionID string) {
	wb, ok := be.(waitingBackend)
	if !ok {
		return
	}
	cs, err := wb.PendingCandidates(w.ctx, "")
	if err != nil {
		return // no memory (no config or data dir): nothing waits
	}
	n := 0
	for _, c := range cs {
		if c.SessionID != sessionID {
			n++
		}
	}
	if n > 0 {
		w.Notify("info", fmt.Sprintf("%d memory or skill candidates of earlier sessions wait for review: /memory and /skills list them; pincer memory approve|reject ID decides one", n))
	}
}
