package badger

import (
	"context"
	"testing"

	"pincer/persist/longsession"
)

// BenchmarkSuspendReopen is what a request to a suspended store daemon pays:
// Suspend (Badger's Close) of a store holding a 2,000-message session, then
// the first read (Badger's Open and a GetSession).
func BenchmarkSuspendReopen(b *testing.B) {
	ctx := context.Background()
	s := openDisk(b, b.TempDir())
	res, err := longsession.Write(ctx, s, longsession.Options{Cwd: "/tmp/p", Messages: 2000})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := s.Suspend(); err != nil {
			b.Fatal(err)
		}
		if _, err := s.GetSession(ctx, res.Session.ID); err != nil {
			b.Fatal(err)
		}
	}
}
