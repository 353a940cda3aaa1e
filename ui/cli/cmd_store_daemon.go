package cli

import (
	"io"

	"pincer/core/app"
)

// StoreDaemonCommand is the hidden command that runs the store daemon.
const StoreDaemonCommand = app.StoreDaemonCommand

// StoreDaemon is `pincer store-daemon`: the process that owns the Badger store
// and serves it to the other pincer processes (app.StoreDaemonMain). It
// returns the daemon's exit code.
func StoreDaemon(args []string, stderr io.Writer) int {
	return app.StoreDaemonMain(args, stderr, Version)
}
