package sandbox

import "sync"

// TaintReads records that a command whose reads had to be confined (allowed
// only by a repository's rule) was allowed to run in w: it may have left
// behind, or keep making in the background, a link or a gitfile that leads
// outside, so from now on, for the rest of the process, every command in w
// that the person did not allow themselves runs with its reads confined too
// (ReadsTainted). A command of that kind already running unconfined — a
// background shell started while w was clean, a foreground command of
// another session — could follow such a link as well (red team r20 F1): the
// first TaintReads ends every command held by HoldUnconfined and returns once
// each has ended, so that the confined command starts only after them (a
// later call waits for the same ends). It is sticky and safe for concurrent
// use.
func (w *Workspace) TaintReads() {
	var wg sync.WaitGroup
	for _, r := range w.taint.taint(&w.tainted) {
		wg.Go(r.wait)
	}
	wg.Wait()
}

// ReadsTainted reports whether TaintReads was called on w.
func (w *Workspace) ReadsTainted() bool { return w.tainted.Load() }

// HoldUnconfined registers a command about to run in w with its reads
// unconfined although a taint would confine them (the person did not allow
// it themselves). stop must end the command — or keep it from starting —
// and return once it has ended; TaintReads calls it. The caller calls
// release once the command has ended by itself (release after stop is
// harmless). ok is false, and nothing is registered, when w is tainted
// already: the command must then run with its reads confined, or not at all.
func (w *Workspace) HoldUnconfined(stop func()) (release func(), ok bool) {
	return w.taint.hold(&w.tainted, stop)
}

// taintHolds is the set of HoldUnconfined's commands of one Workspace.
type taintHolds struct {
	mu      sync.Mutex
	next    uint64
	held    map[uint64]*heldRun
	ended   bool       // TaintReads ran: nothing is held any more
	stopped []*heldRun // what the first TaintReads took from held
}

// heldRun is one held command: its stop, called at most once (a second
// wait blocks until the first has returned).
type heldRun struct {
	once sync.Once
	stop func()
}

func (h *heldRun) wait() { h.once.Do(h.stop) }

// taint sets tainted and, the first time, takes every held command, under
// the same lock as hold, so that no command is registered unconfined after
// the taint; every call returns what the first took.
func (s *taintHolds) taint(tainted interface{ Store(bool) }) []*heldRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	tainted.Store(true)
	if !s.ended {
		s.ended = true
		for _, r := range s.held {
			s.stopped = append(s.stopped, r)
		}
		s.held = nil
	}
	return s.stopped
}

// hold registers stop unless the workspace is tainted.
func (s *taintHolds) hold(tainted interface{ Load() bool }, stop func()) (func(), bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended || tainted.Load() {
		return nil, false
	}
	if s.held == nil {
		s.held = map[uint64]*heldRun{}
	}
	s.next++
	id, r := s.next, &heldRun{stop: stop}
	s.held[id] = r
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.held, id)
	}, true
}
