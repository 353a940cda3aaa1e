package wire

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"time"
)

// Watchdog cancels one HTTP exchange when no byte has arrived for its duration. It
// starts before the request is sent, is kicked when the headers arrive and on every
// read that returns data, and stops when the exchange ends.
type Watchdog struct {
	d     time.Duration
	timer *time.Timer // nil when the guard is disabled
	fired atomic.Bool
}

// StartWatchdog arms a watchdog that calls cancel after d of silence; d <= 0 disables
// it.
func StartWatchdog(d time.Duration, cancel context.CancelFunc) *Watchdog {
	w := &Watchdog{d: d}
	if d > 0 {
		w.timer = time.AfterFunc(d, func() {
			w.fired.Store(true)
			cancel()
		})
	}
	return w
}

// Kick restarts the countdown.
func (w *Watchdog) Kick() {
	if w.timer != nil && !w.fired.Load() {
		w.timer.Reset(w.d)
	}
}

// Stop disarms the watchdog.
func (w *Watchdog) Stop() {
	if w.timer != nil {
		w.timer.Stop()
	}
}

// Stalled reports whether the watchdog cancelled the exchange.
func (w *Watchdog) Stalled() bool { return w.fired.Load() }

// WatchedBody is a response body that kicks its watchdog on every read that returns
// bytes.
type WatchedBody struct {
	R io.ReadCloser
	W *Watchdog
}

// Read implements io.Reader.
func (b WatchedBody) Read(p []byte) (int, error) {
	n, err := b.R.Read(p)
	if n > 0 {
		b.W.Kick()
	}
	return n, err
}

// Close closes the underlying body.
func (b WatchedBody) Close() error { return b.R.Close() }

// StallMessage is the message of the error for an exchange the watchdog cancelled.
func StallMessage(d time.Duration) string {
	return "stream stalled: no data for " + FormatDuration(d)
}

// FormatDuration prints whole seconds as "90s" and anything else as Go does ("1.5s",
// "50ms").
func FormatDuration(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return d.String()
}
