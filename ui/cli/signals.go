package cli

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"pincer/core/agent"
)

// signalContext is signal.NotifyContext for an interrupt, SIGTERM and SIGHUP,
// cancelled with agent.SignalCause of the signal received, so the turn it
// stops says why ("cancelled: terminal closed (SIGHUP)"; an interrupt is
// "cancelled by user"). stop releases the signals.
func signalContext() (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-sigs:
			cancel(agent.SignalCause(sig))
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
}
