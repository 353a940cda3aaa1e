package daemon

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
	"time"
)

// DefaultIdle is how long a daemon with no clients waits before it exits.
const DefaultIdle = 5 * time.Minute

// DefaultSuspendAfter is how long a daemon with no clients keeps its Badger
// database open before it suspends it (badger.Store.Suspend: no Badger
// goroutine wakes up any more; the next request reopens it, a few
// milliseconds — docs/BENCHMARKS.md, "Issue 19: the idle store daemon").
const DefaultSuspendAfter = 5 * time.Second

// Files are the files of a store's daemon in a run directory.
type Files struct {
	Socket string // the Unix socket, mode 0600
	Lock   string // flock taken while a daemon starts or exits
	Log    string // the daemon's stdout and stderr
	Token  string // the daemon's token (remote.NewDaemonToken), mode 0600; "" is remote.TokenFor(Socket)
}

// FilesFor names the daemon files of the store in storeDir, inside runDir: the
// names derive from the store's absolute path, so each store has its daemon.
func FilesFor(runDir, storeDir string) Files {
	if abs, err := filepath.Abs(storeDir); err == nil {
		storeDir = abs
	}
	sum := sha256.Sum256([]byte(storeDir))
	base := filepath.Join(runDir, "store-"+hex.EncodeToString(sum[:6]))
	return Files{Socket: base + ".sock", Lock: base + ".lock", Log: base + ".log", Token: base + ".token"}
}

// LockFor is the start-up lock of the daemon serving on socket: the socket's path
// with ".lock" in place of ".sock" (or appended).
func LockFor(socket string) string {
	return strings.TrimSuffix(socket, ".sock") + ".lock"
}
