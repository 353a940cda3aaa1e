package agent

import (
	"strings"
	"sync"
	"time"
)

// coalescer batches streamed deltas so that at most one message.delta event is
// emitted per interval (DESIGN.md: ≤ ~30 per second per session). A change of kind
// (text ↔ reasoning) flushes first, so kinds never mix in one event. Pending text is
// flushed by a timer even when no further delta arrives. emit runs under the
// coalescer's lock, which keeps events in arrival order.
type coalescer struct {
	interval time.Duration
	emit     func(kind, text string)

	mu     sync.Mutex
	kind   string
	buf    strings.Builder
	last   time.Time
	timer  *time.Timer
	gen    uint64 // counts the timers set: a callback of one stopped too late does nothing
	closed bool
}

func newCoalescer(interval time.Duration, emit func(kind, text string)) *coalescer {
	return &coalescer{interval: interval, emit: emit}
}

// add queues a delta of kind ("text" or "reasoning").
func (c *coalescer) add(kind, text string) {
	if text == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	if kind != c.kind && c.buf.Len() > 0 {
		c.flushLocked()
	}
	c.kind = kind
	c.buf.WriteString(text)
	wait := c.interval - time.Since(c.last)
	if wait <= 0 {
		c.flushLocked()
		return
	}
	if c.timer == nil {
		c.gen++
		gen := c.gen
		c.timer = time.AfterFunc(wait, func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			// A flush may have stopped this timer after it fired, while this
			// waited for the lock (and a later add may have set another):
			// flushing now would emit sooner than interval after that flush.
			if gen != c.gen || c.closed {
				return
			}
			c.timer = nil
			c.flushLocked()
		})
	}
}

// then flushes what is pending, then runs f under the lock: an event f emits
// comes after every delta added before it and before any added later.
func (c *coalescer) then(f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.flushLocked()
	f()
}

// close flushes what is pending and stops the timer; later adds are ignored.
func (c *coalescer) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.flushLocked()
	c.closed = true
}

func (c *coalescer) flushLocked() {
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
		c.gen++ // its callback, if already running, finds another generation
	}
	if c.buf.Len() == 0 {
		return
	}
	c.emit(c.kind, c.buf.String())
	c.buf.Reset()
	c.last = time.Now()
}
