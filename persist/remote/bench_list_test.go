package remote

import (
	"context"
	"fmt"
	"testing"

	"pincer/persist/longsession"
)

// BenchmarkListEventsRemote reads a whole session's log through the daemon's
// wire (a Server in this process over Badger on disk, a Client on its Unix
// socket), as a resume does: the 6,167 events of a 2,000-message session
// (persist/longsession). One op is one ListEvents of all of them; B/op and
// allocs/op count both ends (the server and the client are this process).
func BenchmarkListEventsRemote(b *testing.B) {
	for _, n := range []int{2000} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			disk := openDisk(b, b.TempDir())
			res, err := longsession.Write(context.Background(), disk, longsession.Options{ID: "s", Cwd: "/p", Messages: n})
			if err != nil {
				b.Fatal(err)
			}
			r := serveRemote(b, disk)
			b.ReportAllocs()
			for b.Loop() {
				evs, err := r.ListEvents(context.Background(), "s", 0, 0)
				if err != nil || len(evs) != res.Events {
					b.Fatalf("%d events, %v; want %d", len(evs), err, res.Events)
				}
			}
		})
	}
}
