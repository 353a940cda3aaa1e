package tui

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"pincer/core/event"
)

// maxFrameRate bounds the pump's redraws per second.
const maxFrameRate = 30

// pump is the workbench's only path from background work and the event log
// to the screen. Everything reaches the event loop through one inbox: one
// goroutine, the follower, follows the session's log and posts each event
// there; background work posts its messages there (post). Every post marks
// the screen dirty; a second goroutine, the coalescer, calls draw (in
// production app.QueueUpdateDraw of the frame's sync) when dirty, at most
// maxFrameRate times a second, and the frame drains the inbox on the event
// loop: events go to apply (which folds them into the model), messages run,
// all in the order posted. So apply, reset and every message run on the
// event loop only, and the workbench's state needs no lock. The coalescer
// sleeps on a channel while nothing changes: no timer runs when idle.
//
// draw blocks until the tview event loop has run it, so stop must be called
// while the event loop still runs (before app.Stop) and never from the event
// loop itself.
type pump struct {
	apply  func(event.Event)
	draw   func()
	minGap time.Duration

	dirty atomic.Bool
	kick  chan struct{}
	draws atomic.Int64 // calls of draw, for tests

	inboxMu sync.Mutex
	inbox   []message // posted, run on the event loop by drain

	liveGen int64 // the follower whose events apply: set by its reset, read by drain (event loop only)

	mu       sync.Mutex
	started  bool
	stopped  bool
	quit     chan struct{}
	done     chan struct{} // closed when the coalescer returned
	followWG sync.WaitGroup
	cancelFn context.CancelFunc // of the current follower
	followN  atomic.Int64       // generation of the current follower
	guard    func()             // deferred in every goroutine: turns a panic into a clean stop

	newTicker tickerFunc    // the clock's ticker (clock.go); a test's fake clock
	newTimer  tickerFunc    // one-shot timers (after); a test's fake clock
	clockStop chan struct{} // closed to stop the clock; nil while it does not run
	clockWG   sync.WaitGroup
}

// newPump returns a stopped pump; start runs its coalescer.
func newPump(apply func(event.Event), draw func(), guard func()) *pump {
	if guard == nil {
		guard = func() {}
	}
	return &pump{apply: apply, draw: draw, minGap: time.Second / maxFrameRate,
		kick: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{}), guard: guard,
		newTicker: realTicker, newTimer: realTimer}
}

// start runs the coalescer. It is a no-op after stop.
func (p *pump) start() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.started || p.stopped {
		return
	}
	p.started = true
	go p.coalesce()
}

// message is one entry of the inbox: a change of the workbench's state
// posted by background work (run), or an event of the follower of generation
// gen (run nil), applied only while that follower is the live one.
type message struct {
	run func()
	ev  event.Event
	gen int64
}

// post queues a message of background work (a change of the workbench's
// state) and asks for a frame; the frame runs the queued messages on the
// event loop, in the order posted (drain). Safe from any goroutine.
func (p *pump) post(msg func()) {
	p.inboxMu.Lock()
	p.inbox = append(p.inbox, message{run: msg})
	p.inboxMu.Unlock()
	p.markDirty()
}

// postEvent queues an event of follower gen, as post does.
func (p *pump) postEvent(ev event.Event, gen int64) {
	p.inboxMu.Lock()
	p.inbox = append(p.inbox, message{ev: ev, gen: gen})
	p.inboxMu.Unlock()
	p.markDirty()
}

// drain runs and forgets the queued messages and applies the queued events
// of the live follower, in the order posted; events of a follower a newer
// follow replaced are dropped. Event loop only (every frame and key runs it
// first). What a message posts meanwhile waits for the next drain.
func (p *pump) drain() {
	p.inboxMu.Lock()
	msgs := p.inbox
	p.inbox = nil
	p.inboxMu.Unlock()
	for _, m := range msgs {
		switch {
		case m.run != nil:
			m.run()
		case m.gen == p.liveGen:
			p.apply(m.ev)
		}
	}
}

// markDirty asks for a redraw; any number of calls before the next frame make
// one frame. Safe from any goroutine, the event loop included.
func (p *pump) markDirty() {
	p.dirty.Store(true)
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

func (p *pump) coalesce() {
	defer close(p.done)
	defer p.guard()
	var last time.Time
	for {
		select {
		case <-p.quit:
			return
		case <-p.kick:
		}
		if !last.IsZero() {
			if wait := p.minGap - time.Since(last); wait > 0 {
				t := time.NewTimer(wait)
				select {
				case <-p.quit:
					t.Stop()
					return
				case <-t.C:
				}
			}
		}
		if !p.dirty.Swap(false) {
			continue
		}
		p.draws.Add(1)
		p.draw()
		last = time.Now()
	}
}

// follow replaces the followed session: it stops the current follower, posts
// reset (run on the event loop before any event of the new follower, which
// the model can be cleared for), then follows sessionID in log from sequence
// 1, posting its events. Errors of the log go to onErr. Safe from any
// goroutine, the event loop included (the follower never waits for it).
func (p *pump) follow(log *event.Log, sessionID string, reset func(), onErr func(error)) {
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		return
	}
	if p.cancelFn != nil {
		p.cancelFn()
	}
	p.mu.Unlock()
	p.followWG.Wait()

	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	if p.cancelFn != nil { // a concurrent follow started one meanwhile
		p.cancelFn()
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.cancelFn = cancel
	gen := p.followN.Add(1)
	p.post(func() {
		p.liveGen = gen
		if reset != nil {
			reset()
		}
	})
	p.followWG.Add(1)
	go func() {
		defer p.followWG.Done()
		defer p.guard()
		err := log.Follow(ctx, sessionID, 0, func(ev event.Event) error {
			if p.followN.Load() != gen { // a newer follow replaced this one
				return event.ErrStop
			}
			p.postEvent(ev, gen)
			return nil
		})
		if err != nil && !errors.Is(err, context.Canceled) && onErr != nil {
			onErr(err)
			p.markDirty()
		}
	}()
	p.markDirty()
}

// stop ends the follower and the coalescer and waits for both. Idempotent.
func (p *pump) stop() {
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		p.followWG.Wait()
		return
	}
	p.stopped = true
	if p.cancelFn != nil {
		p.cancelFn()
	}
	started := p.started
	close(p.quit)
	p.mu.Unlock()
	p.followWG.Wait()
	p.clockWG.Wait()
	if started {
		<-p.done
	}
}
