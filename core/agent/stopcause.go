package agent

import (
	"os"
	"syscall"
)

// StopCause is the cause (context.WithCancelCause) of a turn cancelled for a
// reason other than a person's cancel: its Reason becomes the turn.cancelled
// event's reason and the TurnResult's Err, as in "cancelled: terminal closed
// (SIGHUP)". A turn cancelled without one reads "cancelled by user".
type StopCause struct {
	Reason string
}

// Error returns the reason.
func (c *StopCause) Error() string { return c.Reason }

// SignalCause is the cause to cancel with when the process got sig: SIGHUP
// (its terminal went away) "terminal closed (SIGHUP)", SIGTERM "terminated
// (SIGTERM)", another signal "stopped by NAME". An interrupt (Ctrl+C) is a
// person's cancel: nil, so the turn reads "cancelled by user".
func SignalCause(sig os.Signal) error {
	switch sig {
	case os.Interrupt:
		return nil
	case syscall.SIGHUP:
		return &StopCause{Reason: "terminal closed (SIGHUP)"}
	case syscall.SIGTERM:
		return &StopCause{Reason: "terminated (SIGTERM)"}
	}
	return &StopCause{Reason: "stopped by " + sig.String()}
}
