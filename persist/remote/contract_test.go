package remote

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"pincer/persist"
	"pincer/persist/badger"
	"pincer/persist/memory"
	"pincer/persist/storetest"
)

// The Client runs the whole contract suite (persist/storetest) against a
// Server in this process, over a real Unix socket, of the in-memory store and
// of Badger on disk.

// t0 is the tests' fixed time.
var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// remoteStore is a Client of an in-process Server of backing.
type remoteStore struct {
	*Client
	backing persist.Store
	srv     *Server
	socket  string
}

func serveRemote(t testing.TB, backing persist.Store) *remoteStore {
	t.Helper()
	socket := filepath.Join(socketDir(t), "s.sock")
	srv := serve(t, backing, socket)
	return &remoteStore{Client: dial(t, socket), backing: backing, srv: srv, socket: socket}
}

// Close closes the client only; the test's cleanup closes the rest.
func (r *remoteStore) Close() error { return r.Client.Close() }

// openDisk opens Badger in dir and closes it when the test ends.
func openDisk(t testing.TB, dir string) *badger.Store {
	t.Helper()
	s, err := badger.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// The hooks the backing stores have (persist/memory, persist/badger).
type (
	clocked   interface{ SetClock(func() time.Time) }
	rawWriter interface{ WriteRaw(key, value []byte) error }
	keyLister interface{ Keys() ([][]byte, error) }
)

// harness is the contract suite's harness of a Client of a Server of the
// store open returns; disk says that store is Badger on disk (so it reopens).
func harness(name string, disk bool, open func(t testing.TB) persist.Store) storetest.Harness {
	h := storetest.Harness{
		Name: name,
		Open: func(t testing.TB) persist.Store { return serveRemote(t, open(t)) },
		SetClock: func(s persist.Store, now func() time.Time) {
			r := s.(*remoteStore)
			r.Client.SetClock(now)
			r.backing.(clocked).SetClock(now)
		},
		WriteRaw: func(t testing.TB, s persist.Store, key, value []byte) {
			if err := s.(*remoteStore).backing.(rawWriter).WriteRaw(key, value); err != nil {
				t.Fatal(err)
			}
		},
	}
	if disk {
		h.Keys = func(t testing.TB, s persist.Store) [][]byte {
			keys, err := s.(*remoteStore).backing.(keyLister).Keys()
			if err != nil {
				t.Fatal(err)
			}
			return keys
		}
		// Reopen restarts the daemon under the live client: the server and
		// the store close and open again on the same socket; the client
		// reconnects.
		h.Reopen = func(t testing.TB, s persist.Store) persist.Store {
			r := s.(*remoteStore)
			r.srv.Close()
			b := r.backing.(*badger.Store)
			if err := b.Close(); err != nil {
				t.Fatal(err)
			}
			b = openDisk(t, b.Dir())
			os.Remove(r.socket)
			srv := serve(t, b, r.socket)
			return &remoteStore{Client: r.Client, backing: b, srv: srv, socket: r.socket}
		}
	}
	return h
}

func TestContract(t *testing.T) {
	storetest.Run(t, harness("remote-memory", false, func(t testing.TB) persist.Store {
		s := memory.New()
		t.Cleanup(func() { s.Close() })
		return s
	}))
	storetest.Run(t, harness("remote-badger-disk", true, func(t testing.TB) persist.Store {
		return openDisk(t, t.TempDir())
	}))
}
