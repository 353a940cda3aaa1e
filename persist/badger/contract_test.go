package badger

import (
	"testing"
	"time"

	"pincer/persist"
	"pincer/persist/storetest"
)

// The contract suite (persist/storetest) against Badger in memory and on disk.

// openDisk opens the store in dir and closes it when the test ends.
func openDisk(t testing.TB, dir string) *Store {
	t.Helper()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// harness returns the contract suite's harness of Badger in memory (disk
// false) or on disk.
func harness(disk bool) storetest.Harness {
	h := storetest.Harness{
		Name:     "badger-inmemory",
		SetClock: func(s persist.Store, now func() time.Time) { s.(*Store).SetClock(now) },
		WriteRaw: func(t testing.TB, s persist.Store, key, value []byte) {
			if err := s.(*Store).WriteRaw(key, value); err != nil {
				t.Fatal(err)
			}
		},
		Keys: func(t testing.TB, s persist.Store) [][]byte {
			keys, err := s.(*Store).Keys()
			if err != nil {
				t.Fatal(err)
			}
			return keys
		},
		Open: func(t testing.TB) persist.Store {
			s, err := OpenInMemory()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		},
	}
	if disk {
		h.Name = "badger-disk"
		h.Open = func(t testing.TB) persist.Store { return openDisk(t, t.TempDir()) }
		h.Reopen = func(t testing.TB, s persist.Store) persist.Store {
			b := s.(*Store)
			if err := b.Close(); err != nil {
				t.Fatal(err)
			}
			return openDisk(t, b.Dir())
		}
	}
	return h
}

func TestContract(t *testing.T) {
	storetest.Run(t, harness(false))
	storetest.Run(t, harness(true))
}
