package daemon

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/persist"
	"pincer/persist/badger"
)

// The cost of the store daemon: appends through the socket (the daemon is another
// process, as in use) against appends to Badger in the process, each with and
// without Badger's SyncWrites; and a client's start-up while the daemon runs.

// benchStore opens the store a benchmark appends to.
func benchStore(b *testing.B, via string, sync bool) persist.Store {
	dir := b.TempDir()
	if via == "direct" {
		s, err := badger.OpenWith(dir, badger.Options{SyncWrites: sync})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { s.Close() })
		return s
	}
	opts := daemonOptions(b, dir, time.Minute)
	if sync {
		opts.Env = append(opts.Env, childSyncEnv+"=1")
	}
	return openDaemonClient(b, opts)
}

// BenchmarkAppendEventNext appends message.delta events of one session, as a
// streaming turn does.
func BenchmarkAppendEventNext(b *testing.B) {
	for _, sync := range []bool{false, true} {
		for _, via := range []string{"direct", "socket"} {
			b.Run(fmt.Sprintf("%s/syncwrites=%v", via, sync), func(b *testing.B) {
				s := benchStore(b, via, sync)
				ctx := context.Background()
				ev, _ := event.New(event.MessageDelta, "s", "t",
					event.MessageDeltaData{MessageID: "0123456789abcdef", Delta: "a few words of text ", Kind: "text"})
				b.ReportAllocs()
				for b.Loop() {
					ev.Timestamp = time.Now()
					if _, err := s.AppendEventNext(ctx, ev); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkAppendMessageRemote appends 1 KB messages (the transcript, written a
// few times per model call).
func BenchmarkAppendMessageRemote(b *testing.B) {
	for _, sync := range []bool{false, true} {
		for _, via := range []string{"direct", "socket"} {
			b.Run(fmt.Sprintf("%s/syncwrites=%v", via, sync), func(b *testing.B) {
				s := benchStore(b, via, sync)
				ctx := context.Background()
				b.ReportAllocs()
				for b.Loop() {
					m := message.NewText(message.RoleTool, strings.Repeat("x", 1024))
					m.SessionID = "s"
					if _, err := s.AppendMessage(ctx, m); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkOpenRemoteRunning is a second process's start-up while the daemon
// runs: connect, first request (the newest session), close.
func BenchmarkOpenRemoteRunning(b *testing.B) {
	opts := daemonOptions(b, b.TempDir(), time.Minute)
	first := openDaemonClient(b, opts)
	ctx := context.Background()
	if err := first.PutSession(ctx, persist.Session{ID: "s", UpdatedAt: t0}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		c, err := Connect(ctx, opts)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := c.ListSessions(ctx, 1); err != nil {
			b.Fatal(err)
		}
		c.Close()
	}
}
