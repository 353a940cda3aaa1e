package tui

import (
	"context"
	"time"

	"pincer/core/event"
)

// Resuming a long session (issue 19): the time to a complete screen must not
// grow with the session's length. A session whose log is longer than
// tailEvents is shown tail first: its follower reads only the log's last
// tailEvents events (from the start of the first turn among them), posts
// them to the inbox as a replay of a session that began there, and the
// first frame draws the newest screenful from that model. Then, off the
// event loop, the follower folds the whole log into a fresh Model (the
// backfill) and hands it to the event loop, which shows it in place of the
// tail's — the same Model a replay from sequence 1 builds, whole-log state
// (turn count, usage totals, mode, model, approvals, subagents) included —
// and only then follows the live log on. The status line says "loading
// history" meanwhile (status.go), rather than the tail's partial totals.

// maxTailHold bounds how long frames wait for a long log's tail: the frame
// the tail is in comes as soon as it is read, not one frame slot
// (1/maxFrameRate) after a frame of what the workbench held before (the
// store's answer to Attach, the previous session); a store slower than this
// gets its frames all the same.
const maxTailHold = 100 * time.Millisecond

// tailEvents is how many of a session's last events a resume shows first: a
// screenful of transcript with room (a turn of a prompt, an answer and a tool
// call is 6–12 events; a screen shows a few turns).
const tailEvents = 400

// followTail is follow for a session whose last stored sequence is last
// (more than tailEvents): reset, the tail's events, then backfilled with the
// whole log's Model (run on the event loop while this follower is key's live
// one), then the events after the tail as they come.
func (p *pump) followTail(key int, log *event.Log, sessionID string, last uint64, reset func(), onErr func(error), backfilled func(full *Model)) {
	p.hold(maxTailHold) // unheld once the tail is posted (Attach may have held them already)
	p.startFollower(key, nil, onErr, func(ctx context.Context, gen int64) error {
		tail, err := log.Read(ctx, sessionID, last-tailEvents, 0)
		// reset goes with the tail, so that one frame shows it (a frame of the
		// emptied model between them would push the tail's to the next frame
		// slot, 1/maxFrameRate later); the inbox keeps the order.
		p.post(func() {
			if p.liveGen[key] == gen {
				reset()
			}
		})
		tail = fromTurnStart(tail)
		if err != nil || len(tail) == 0 {
			p.unhold()
			if err != nil {
				return err
			}
			// nothing where the log said it ended (deleted meanwhile): as follow
			return p.followFrom(ctx, log, sessionID, 0, key, gen)
		}
		for _, ev := range tail {
			p.postEvent(ev, key, gen)
		}
		p.unhold()
		select { // the tail's frame first: the backfill's allocations would slow it down
		case <-p.afterDraw():
		case <-ctx.Done():
			return ctx.Err()
		}
		first := tail[0].Sequence
		full := NewModel()
		if first > 1 {
			older, err := log.Read(ctx, sessionID, 0, int(first-1))
			if err != nil {
				return err
			}
			for i, ev := range older {
				if i%1024 == 0 && ctx.Err() != nil { // replaced or stopped: nobody waits for it
					return ctx.Err()
				}
				if ev.Sequence < first {
					full.Apply(ev)
				}
			}
		}
		for _, ev := range tail {
			full.Apply(ev)
		}
		full.TakeTouched() // the view is rebuilt from every block
		p.post(func() {
			if p.liveGen[key] == gen {
				backfilled(full)
			}
		})
		return p.followFrom(ctx, log, sessionID, tail[len(tail)-1].Sequence, key, gen)
	})
}

// fromTurnStart drops the events before the first turn.started of evs (a
// tail that begins inside a turn would show that turn's end without its
// start); with none, evs is kept whole.
func fromTurnStart(evs []event.Event) []event.Event {
	for i, ev := range evs {
		if ev.Type == event.TurnStarted {
			return evs[i:]
		}
	}
	return evs
}

// backfilled shows the whole log's Model full (followTail) in tab t in place
// of the tail's: what the end of the replay decided on the tail's model (a
// turn nobody runs any more shown interrupted) is decided again on full, and
// the running subagents to follow are found in full (they may have started
// before the tail). Event loop only.
func (w *Workbench) backfilled(t *sessionTab, full *Model) {
	if !t.backfilling {
		return
	}
	t.backfilling = false
	if t.tailInterrupted {
		full.Interrupt()
		full.TakeTouched()
	}
	t.model = full
	t.resetView = true
	if t.replayEnd == 0 {
		w.watchSubagents(t, event.Event{}, true)
	}
}

// afterDraw returns a channel closed once a frame that ran everything posted
// before this call has been drawn (the coalescer's draw returned). Safe from
// any goroutine.
func (p *pump) afterDraw() <-chan struct{} {
	ch := make(chan struct{})
	p.post(func() {
		p.inboxMu.Lock()
		p.drawn = append(p.drawn, ch)
		p.inboxMu.Unlock()
	})
	return ch
}

// closeDrawn closes the channels of afterDraw whose frame was just drawn;
// the coalescer calls it after each draw.
func (p *pump) closeDrawn() {
	p.inboxMu.Lock()
	drawn := p.drawn
	p.drawn = nil
	p.inboxMu.Unlock()
	for _, ch := range drawn {
		close(ch)
	}
}

// hold holds frames back for d at most, until unhold (resume_tail.go's
// tail read). Safe from any goroutine.
func (p *pump) hold(d time.Duration) {
	select { // a release left over from an earlier hold
	case <-p.release:
	default:
	}
	p.holdUntil.Store(time.Now().Add(d).UnixNano())
}

// unhold ends a hold and lets the held frame be drawn; a no-op without one.
func (p *pump) unhold() {
	if p.holdUntil.Swap(0) == 0 {
		return
	}
	select {
	case p.release <- struct{}{}:
	default:
	}
}

// waitHold waits, in the coalescer, while frames are held (hold); false when
// the pump stopped meanwhile. Without a hold it returns at once: no timer
// runs while nothing is held.
func (p *pump) waitHold() bool {
	until := p.holdUntil.Load()
	if until == 0 {
		return true
	}
	d := time.Until(time.Unix(0, until))
	if d <= 0 {
		p.holdUntil.CompareAndSwap(until, 0)
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.quit:
		return false
	case <-p.release:
	case <-t.C:
		p.holdUntil.CompareAndSwap(until, 0)
	}
	return true
}
