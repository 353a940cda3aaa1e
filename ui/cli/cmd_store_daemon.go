package cli

import (
	"io"

	"pincer/core/app"
	"pincer/persist/daemon"
)

// StoreDaemonCommand is the hidden command that runs the store daemon.
const StoreDaemonCommand = app.StoreDaemonCommand

// StoreDaemon is `pincer store-daemon`: the process that owns the Badger store
// and serves it to the other pincer processes (persist/daemon.Main, over this
// user's store directory and daemon files, app.StoreDir and app.DaemonFiles).
// It returns Main's exit code.
func StoreDaemon(args []string, stderr io.Writer) int {
	return daemon.Main(args, stderr, daemon.Entry{Version: Version, StoreDir: app.StoreDir, FilesFor: app.DaemonFiles})
}
