package tui

import (
	"sync"
	"time"
)

// clockPeriod is how often the status line's elapsed time moves while a
// turn runs.
const clockPeriod = time.Second

// tickerFunc starts a ticker of period d: its channel and the function that
// stops it (time.NewTicker's, or a test's fake clock).
type tickerFunc func(d time.Duration) (<-chan time.Time, func())

// realTicker is tickerFunc over time.NewTicker.
func realTicker(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTicker(d)
	return t.C, t.Stop
}

// setClock runs the clock (on true) or stops it: while it runs, a goroutine
// marks the screen dirty every clockPeriod, so a turn that waits on an
// approval, a retry or a long command still shows its elapsed time move;
// stopped, nothing ticks (the idle workbench draws nothing). Called every
// frame from the event loop; only a change starts or stops anything. The
// goroutine also ends when the pump stops.
func (p *pump) setClock(on bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case on && p.clockStop == nil && !p.stopped:
		c, stopTicker := p.newTicker(clockPeriod)
		stop := make(chan struct{})
		p.clockStop = stop
		p.clockWG.Add(1)
		go func() {
			defer p.clockWG.Done()
			defer p.guard()
			defer stopTicker()
			for {
				select {
				case <-c:
					p.markDirty()
				case <-stop:
					return
				case <-p.quit:
					return
				}
			}
		}()
	case !on && p.clockStop != nil:
		close(p.clockStop)
		p.clockStop = nil
	}
}

// clockRunning reports whether the clock ticks (for tests).
func (p *pump) clockRunning() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.clockStop != nil
}

// realTimer is tickerFunc over time.NewTimer: its channel fires once.
func realTimer(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTimer(d)
	return t.C, func() { t.Stop() }
}

// after runs fn on the event loop (posted) once d has passed on the pump's
// timer clock (newTimer), unless the returned cancel is called first or
// the pump stops. One goroutine per call, ended by any of the three; it
// redraws only by fn's post.
func (p *pump) after(d time.Duration, fn func()) (cancel func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return func() {}
	}
	c, stopTimer := p.newTimer(d)
	done := make(chan struct{})
	var once sync.Once
	p.clockWG.Add(1)
	go func() {
		defer p.clockWG.Done()
		defer p.guard()
		defer stopTimer()
		select {
		case <-c:
			p.post(fn)
		case <-done:
		case <-p.quit:
		}
	}()
	return func() { once.Do(func() { close(done) }) }
}
