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

// pump is the workbench's only path from the event log to the screen. One
// goroutine follows the session's log and hands each event to apply (which
// folds it into the model under the workbench mutex); every change marks the
// screen dirty; a second goroutine, the coalescer, calls draw (in production
// app.QueueUpdateDraw) when dirty, at most maxFrameRate times a second. The
// coalescer sleeps on a channel while nothing changes: no timer runs when idle.
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
	inbox   []func() // messages of background work, run on the event loop by drain

	mu       sync.Mutex
	started  bool
	stopped  bool
	quit     chan struct{}
	done     chan struct{} // closed when the coalescer returned
	followWG sync.WaitGroup
	cancelFn context.CancelFunc // of the current follower
	followN  atomic.Int64       // generation of the current follower
	guard    func()             // deferred in every goroutine: turns a panic into a clean stop
}

// newPump returns a stopped pump; start runs its coalescer.
func newPump(apply func(event.Event), draw func(), guard func()) *pump {
	if guard == nil {
		guard = func() {}
	}
	return &pump{apply: apply, draw: draw, minGap: time.Second / maxFrameRate,
		kick: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{}), guard: guard}
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

// post queues a message of background work (a change of the workbench's
// state) and asks for a frame; the frame runs the queued messages on the
// event loop, in the order posted (drain). Safe from any goroutine.
func (p *pump) post(msg func()) {
	p.inboxMu.Lock()
	p.inbox = append(p.inbox, msg)
	p.inboxMu.Unlock()
	p.markDirty()
}

// drain runs and forgets the queued messages. Event loop only (the frame's
// sync runs it first).
func (p *pump) drain() {
	p.inboxMu.Lock()
	msgs := p.inbox
	p.inbox = nil
	p.inboxMu.Unlock()
	for _, m := range msgs {
		m()
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

// follow replaces the followed session: it stops the current follower, calls
// reset (with no follower running, so the model can be cleared), then follows
// sessionID in log from sequence 1. Errors of the log go to onErr.
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
	if reset != nil {
		reset()
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.cancelFn = cancel
	gen := p.followN.Add(1)
	p.followWG.Add(1)
	go func() {
		defer p.followWG.Done()
		defer p.guard()
		err := log.Follow(ctx, sessionID, 0, func(ev event.Event) error {
			p.mu.Lock() // orders this apply against a reset by a newer follow
			current := p.followN.Load() == gen
			if current {
				p.apply(ev)
			}
			p.mu.Unlock()
			if !current {
				return event.ErrStop
			}
			p.markDirty()
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
	if started {
		<-p.done
	}
}
