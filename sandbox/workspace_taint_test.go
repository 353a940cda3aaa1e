package sandbox

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestTaintReadsEndsHeld: TaintReads calls every held stop once and returns
// only after each; a second, concurrent TaintReads waits for the same stops;
// a released hold is not stopped; nothing is held once tainted.
func TestTaintReadsEndsHeld(t *testing.T) {
	w, err := NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var stops, released atomic.Int32
	slow := func() { time.Sleep(200 * time.Millisecond); stops.Add(1) }
	if _, ok := w.HoldUnconfined(slow); !ok {
		t.Fatal("a clean workspace refused a hold")
	}
	rel, _ := w.HoldUnconfined(func() { released.Add(1) })
	rel()
	done := make(chan struct{})
	go func() { w.TaintReads(); close(done) }()
	time.Sleep(20 * time.Millisecond)
	w.TaintReads() // the second caller
	if got := stops.Load(); got != 1 {
		t.Errorf("after the second TaintReads, %d stops had returned, want 1", got)
	}
	<-done
	if released.Load() != 0 {
		t.Error("a released hold was stopped")
	}
	if !w.ReadsTainted() {
		t.Error("not tainted")
	}
	if _, ok := w.HoldUnconfined(func() {}); ok {
		t.Error("a tainted workspace accepted a hold")
	}
	w.TaintReads()
	if got := stops.Load(); got != 1 {
		t.Errorf("a stop ran %d times, want once", got)
	}
}
