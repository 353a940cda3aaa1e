package openai

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"pincer/core/provider"
)

// watchdog cancels one HTTP exchange when no byte has arrived for its duration. It
// starts before the request is sent, is kicked when the headers arrive and on every
// read that returns data, and stops when the exchange ends.
type watchdog struct {
	d     time.Duration
	timer *time.Timer // nil when the guard is disabled
	fired atomic.Bool
}

// startWatchdog arms a watchdog that calls cancel after d of silence; d <= 0 disables
// it.
func startWatchdog(d time.Duration, cancel context.CancelFunc) *watchdog {
	w := &watchdog{d: d}
	if d > 0 {
		w.timer = time.AfterFunc(d, func() {
			w.fired.Store(true)
			cancel()
		})
	}
	return w
}

// kick restarts the countdown.
func (w *watchdog) kick() {
	if w.timer != nil && !w.fired.Load() {
		w.timer.Reset(w.d)
	}
}

// stop disarms the watchdog.
func (w *watchdog) stop() {
	if w.timer != nil {
		w.timer.Stop()
	}
}

// stalled reports whether the watchdog cancelled the exchange.
func (w *watchdog) stalled() bool { return w.fired.Load() }

// watchedReader kicks its watchdog on every read that returns bytes.
type watchedReader struct {
	r io.Reader
	w *watchdog
}

// Read implements io.Reader.
func (b watchedReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if n > 0 {
		b.w.kick()
	}
	return n, err
}

// stallError is the error of an exchange the watchdog cancelled.
func (p *Provider) stallError() *provider.Error {
	return p.errorf(provider.KindStream, "stream stalled: no data for %s", formatDuration(p.stall))
}

// formatDuration prints whole seconds as "90s" and anything else as Go does ("1.5s",
// "50ms").
func formatDuration(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return d.String()
}
