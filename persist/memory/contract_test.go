package memory

import (
	"testing"
	"time"

	"pincer/persist"
	"pincer/persist/storetest"
)

// harness is the contract suite's harness of the in-memory store.
var harness = storetest.Harness{
	Name: "memory",
	Open: func(t testing.TB) persist.Store {
		s := New()
		t.Cleanup(func() { s.Close() })
		return s
	},
	SetClock: func(s persist.Store, now func() time.Time) { s.(*Store).SetClock(now) },
	WriteRaw: func(t testing.TB, s persist.Store, key, value []byte) {
		if err := s.(*Store).WriteRaw(key, value); err != nil {
			t.Fatal(err)
		}
	},
}

func TestContract(t *testing.T) { storetest.Run(t, harness) }
