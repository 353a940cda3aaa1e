package app

import (
	"context"
	"errors"

	"pincer/core/event"
	"pincer/persist"
)

// WatchCursor is where `pincer sessions watch` starts by default: just before
// the running turn's turn.started (running true), or after the last event when
// no turn runs.
func WatchCursor(ctx context.Context, store persist.Store, id string) (cursor uint64, running bool, err error) {
	evs, err := store.ListEvents(ctx, id, 0, 0)
	if err != nil && !errors.Is(err, persist.ErrCorrupt) {
		return 0, false, err
	}
	var start, last uint64
	turn := ""
	for _, ev := range evs {
		last = ev.Sequence
		switch ev.Type {
		case event.TurnStarted:
			start, turn = ev.Sequence, ev.TurnID
		case event.TurnCompleted, event.TurnFailed, event.TurnCancelled:
			if ev.TurnID == turn {
				turn = ""
			}
		}
	}
	if turn != "" {
		return start - 1, true, nil
	}
	return last, false, nil
}
