package tui

import (
	"time"

	"github.com/gdamore/tcell/v2"
)

// pasteScreen wraps the terminal screen to repair pastes.
//
// Bracketed paste: with paste mode on, tcell 2.13 delivers a pasted LF as
// KeyCtrlJ, and tview v0.42.0's paste collector keeps only runes, Enter and
// Tab, so every newline of a pasted text would be lost. While a paste is in
// progress this wrapper turns KeyCtrlJ into KeyEnter (and drops the LF of a
// CRLF pair, whose CR already arrived as Enter); outside a paste Ctrl+J stays
// Ctrl+J, the newline key.
//
// Unbracketed paste (a terminal without bracketed paste, tmux's plain
// paste-buffer): the text arrives as keys, each newline an Enter that would
// send a line. After a character or newline key the wrapper waits up to
// burstGap for more; a burst with an inner newline (burstPaste) is handed on
// as a bracketed paste (paste start, its keys, paste end), so it reaches the
// input box whole, newlines kept. That wait delays a typed key by at most
// burstGap.
//
// onError, when set, runs on the polling goroutine before a screen error is
// handed to tview (which stops the application on it), so the workbench can
// stop its pump while the event loop still runs.
type pasteScreen struct {
	tcell.Screen
	onError func()
	// initialised: New already ran Init (the terminal, whose failure it
	// reports), so tview's SetScreen must not run it again.
	initialised bool

	// Touched only by PollEvent, which tview calls from one goroutine.
	pasting bool
	lastCR  bool
	events  chan tcell.Event // fed by a goroutine polling the screen; nil until the first PollEvent
	ready   []tcell.Event    // events decided, handed out before any other
	pending []tcell.Event    // events polled but not yet examined

	fast fastKeys // keys handed on as keys that came in a burst (approval_guard.go)
}

// Init initialises the screen unless New already did.
func (s *pasteScreen) Init() error {
	if s.initialised {
		s.initialised = false // a later Init (a screen swap) is real
		return nil
	}
	return s.Screen.Init()
}

// PollEvent returns the next event, repaired as described on pasteScreen; nil
// once the screen is finalised.
func (s *pasteScreen) PollEvent() tcell.Event {
	for {
		if len(s.ready) > 0 {
			ev := s.ready[0]
			s.ready = s.ready[1:]
			return ev
		}
		ev, ok := s.next(0)
		if !ok || ev == nil {
			return nil
		}
		switch e := ev.(type) {
		case *tcell.EventPaste:
			s.pasting, s.lastCR = e.Start(), false
		case *tcell.EventKey:
			if !s.pasting {
				if pasteable(e) {
					ev = s.burst(e)
				}
				break
			}
			cr := e.Key() == tcell.KeyEnter
			if e.Key() == tcell.KeyCtrlJ {
				if s.lastCR {
					s.lastCR = false
					continue // CRLF: the CR was the newline
				}
				ev = tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone)
			}
			s.lastCR = cr
		case *tcell.EventError:
			if s.onError != nil {
				s.onError()
			}
		}
		return ev
	}
}

// next returns the next undecided event: a pending one, else the next the
// screen delivers, waiting at most wait (0: as long as it takes). ok is false
// when the wait ran out; a nil event means the screen was finalised.
func (s *pasteScreen) next(wait time.Duration) (tcell.Event, bool) {
	if len(s.pending) > 0 {
		ev := s.pending[0]
		s.pending = s.pending[1:]
		return ev, true
	}
	if s.events == nil {
		s.events = make(chan tcell.Event, 256)
		go func(screen tcell.Screen, out chan<- tcell.Event) {
			for {
				ev := screen.PollEvent()
				out <- ev
				if ev == nil {
					return
				}
			}
		}(s.Screen, s.events)
	}
	var ev tcell.Event
	select {
	case ev = <-s.events: // already there: no timer
	default:
		if wait <= 0 {
			ev = <-s.events
			break
		}
		timer := time.NewTimer(wait)
		select {
		case ev = <-s.events:
			timer.Stop()
		case <-timer.C:
			return nil, false
		}
	}
	if ev == nil {
		s.events = nil // finalised: a later PollEvent (after a new Init) polls again
	}
	return ev, true
}

// burst collects the pasteable keys that follow first, each within burstGap,
// and returns what to hand on now: the paste a burst with an inner newline is
// (burstPaste), else first as it is. The rest is decided (s.ready) but for
// keys after the burst and the event that ended it, which are examined again
// (s.pending).
func (s *pasteScreen) burst(first *tcell.EventKey) tcell.Event {
	keys := []*tcell.EventKey{first}
	var rest []tcell.Event
	for {
		ev, ok := s.next(burstGap)
		if !ok {
			break
		}
		if k, isKey := ev.(*tcell.EventKey); isKey && pasteable(k) {
			keys = append(keys, k)
			continue
		}
		rest = append(rest, ev)
		break
	}
	timed := make([]keyAt, len(keys))
	for i, k := range keys {
		timed[i] = keyAt{key: k.Key(), at: k.When()}
	}
	run := fastRun(timed, burstGap)
	n := burstPaste(timed[:run])
	var out []tcell.Event
	if n > 0 {
		out = append(out, tcell.NewEventPaste(true))
		for _, k := range keys[:n] {
			if k.Key() == tcell.KeyCtrlJ {
				k = tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone)
			}
			out = append(out, k)
		}
		out = append(out, tcell.NewEventPaste(false))
	}
	for _, k := range keys[n:run] {
		if run > 1 {
			s.fast.mark(k)
		}
		out = append(out, k)
	}
	var again []tcell.Event
	for _, k := range keys[run:] {
		again = append(again, k)
	}
	s.ready = append(s.ready, out[1:]...)
	s.pending = append(append(again, rest...), s.pending...)
	return out[0]
}
