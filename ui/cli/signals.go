package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"pincer/core/agent"
)

// signalContext is signal.NotifyContext for an interrupt, SIGTERM and SIGHUP,
// cancelled with agent.SignalCause of the signal received, so the turn it
// stops says why ("cancelled: terminal closed (SIGHUP)"; an interrupt is
// "cancelled by user"). stop releases the signals. Until started is called
// (the session has begun: there is a turn to stop and a transcript to keep) a
// signal ends the process at once, with 128+its number, as the default
// action would: start-up work that does not watch ctx (a store that will not
// open, a read that waits) never makes pincer ignore SIGTERM.
func signalContext() (ctx context.Context, stop, started func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	var up atomic.Bool
	go func() {
		select {
		case sig := <-sigs:
			if !up.Load() {
				fmt.Fprintf(os.Stderr, "pincer: stopped by %s during start-up\n", sig)
				os.Exit(128 + signalNumber(sig))
			}
			cancel(agent.SignalCause(sig))
		case <-done:
		}
	}()
	return ctx, func() {
			signal.Stop(sigs)
			close(done)
			cancel(nil)
		}, func() {
			up.Store(true)
		}
}

// signalNumber is sig's number (SIGTERM 15), 1 for a signal that has none.
func signalNumber(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return int(s)
	}
	return 1
}
