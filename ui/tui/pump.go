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
// goroutine per followed session (a tab's follower, keyed by the tab)
// follows that session's log and posts each event there; background work posts its messages there (post). Every post marks
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
	apply func(key int, ev event.Event) // an event of the follower of key (a tab)
	// applyChild folds an event of a child session followed for key's
	// session (pump_children.go); nil drops them.
	applyChild func(key int, child string, ev event.Event)
	draw       func()
	minGap     time.Duration

	dirty atomic.Bool
	kick  chan struct{}
	// holdUntil (unix ns, 0: none) holds frames back while a long log's tail
	// is read (resume_tail.go), until release or that time.
	holdUntil atomic.Int64
	release   chan struct{}
	draws     atomic.Int64 // calls of draw, for tests

	inboxMu sync.Mutex
	inbox   []message       // posted, run on the event loop by drain
	drawn   []chan struct{} // closed once the frame that drained their afterDraw is drawn (resume_tail.go)

	liveGen map[int]int64 // by key, the follower whose events apply: set by its reset, read by drain (event loop only)

	mu        sync.Mutex
	started   bool
	stopped   bool
	quit      chan struct{}
	done      chan struct{} // closed when the coalescer returned
	followWG  sync.WaitGroup
	followers map[int]*follower                     // the current follower of each key
	children  map[int]map[string]context.CancelFunc // by key, its children's followers (pump_children.go)
	followN   atomic.Int64                          // the last generation handed out (every key's followers share the count)
	guard     func()                                // deferred in every goroutine: turns a panic into a clean stop

	newTicker tickerFunc    // the clock's ticker (clock.go); a test's fake clock
	newTimer  tickerFunc    // one-shot timers (after); a test's fake clock
	clockStop chan struct{} // closed to stop the clock; nil while it does not run
	clockWG   sync.WaitGroup
}

// follower is one goroutine following a session's log for a key.
type follower struct {
	cancel context.CancelFunc
	done   chan struct{} // closed when the goroutine returned
}

// newPump returns a stopped pump; start runs its coalescer. apply gets each
// event with the key of the follower that posted it.
func newPump(apply func(key int, ev event.Event), draw func(), guard func()) *pump {
	if guard == nil {
		guard = func() {}
	}
	return &pump{apply: apply, draw: draw, minGap: time.Second / maxFrameRate,
		liveGen: map[int]int64{}, followers: map[int]*follower{},
		kick: make(chan struct{}, 1), release: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{}), guard: guard,
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
// posted by background work (run), or an event of the follower of key and
// generation gen (run nil), applied only while that follower is key's live
// one.
type message struct {
	run func()
	ev  event.Event
	key int
	gen int64
	// child is the child session of a child follower's event ("": the
	// session key follows).
	child string
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

// postEvent queues an event of key's follower gen, as post does.
func (p *pump) postEvent(ev event.Event, key int, gen int64) {
	p.inboxMu.Lock()
	p.inbox = append(p.inbox, message{ev: ev, key: key, gen: gen})
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
		case m.gen != p.liveGen[m.key]:
		case m.child != "":
			if p.applyChild != nil {
				p.applyChild(m.key, m.child, m.ev)
			}
		default:
			p.apply(m.key, m.ev)
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
		if !p.waitHold() {
			return
		}
		if !p.dirty.Swap(false) {
			continue
		}
		p.draws.Add(1)
		p.draw()
		p.closeDrawn()
		last = time.Now()
	}
}

// follow replaces the session followed for key (a tab): it stops key's
// current follower, posts reset (run on the event loop before any event of
// the new follower, which the model can be cleared for), then follows
// sessionID in log from sequence 1, posting its events with key. Followers
// of other keys go on. Errors of the log go to onErr. Safe from any
// goroutine, the event loop included (the follower never waits for it).
func (p *pump) follow(key int, log *event.Log, sessionID string, reset func(), onErr func(error)) {
	p.startFollower(key, reset, onErr, func(ctx context.Context, gen int64) error {
		return p.followFrom(ctx, log, sessionID, 0, key, gen)
	})
}

// followFrom follows sessionID in log after sequence after, posting its
// events with key and gen, until ctx ends (a newer follow or unfollow).
func (p *pump) followFrom(ctx context.Context, log *event.Log, sessionID string, after uint64, key int, gen int64) error {
	return log.Follow(ctx, sessionID, after, func(ev event.Event) error {
		if ctx.Err() != nil { // a newer follow (or unfollow) replaced this one
			return event.ErrStop
		}
		p.postEvent(ev, key, gen)
		return nil
	})
}

// startFollower replaces key's follower with one goroutine running run (with
// the follower's context and generation), after posting reset as follow
// does; run's error, unless the context was cancelled, goes to onErr.
func (p *pump) startFollower(key int, reset func(), onErr func(error), run func(ctx context.Context, gen int64) error) {
	if !p.unfollowWait(key) {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	if old := p.followers[key]; old != nil { // a concurrent follow started one meanwhile
		old.cancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	f := &follower{cancel: cancel, done: make(chan struct{})}
	p.followers[key] = f
	gen := p.followN.Add(1)
	p.post(func() {
		p.liveGen[key] = gen
		if reset != nil {
			reset()
		}
	})
	p.followWG.Add(1)
	go func() {
		defer p.followWG.Done()
		defer close(f.done)
		defer p.guard()
		err := run(ctx, gen)
		if err != nil && !errors.Is(err, context.Canceled) && onErr != nil {
			onErr(err)
			p.markDirty()
		}
	}()
	p.markDirty()
}

// unfollow stops key's follower (a tab closed); events it posted and not yet
// drained are dropped. Safe from any goroutine.
func (p *pump) unfollow(key int) {
	p.mu.Lock()
	if f := p.followers[key]; f != nil {
		f.cancel()
		delete(p.followers, key)
	}
	p.endChildrenLocked(key)
	p.mu.Unlock()
	p.post(func() { delete(p.liveGen, key) })
}

// unfollowWait cancels key's follower and waits for it to end; false once
// the pump stopped.
func (p *pump) unfollowWait(key int) bool {
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		return false
	}
	f := p.followers[key]
	if f != nil {
		f.cancel()
	}
	p.endChildrenLocked(key)
	p.mu.Unlock()
	if f != nil {
		<-f.done
	}
	return true
}

// stop ends the followers and the coalescer and waits for both. Idempotent.
func (p *pump) stop() {
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		p.followWG.Wait()
		return
	}
	p.stopped = true
	for _, f := range p.followers {
		f.cancel()
	}
	for key := range p.children {
		p.endChildrenLocked(key)
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
