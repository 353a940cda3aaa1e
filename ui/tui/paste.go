package tui

import "github.com/gdamore/tcell/v2"

// pasteScreen wraps the terminal screen to repair bracketed paste. With paste
// mode on, tcell 2.13 delivers a pasted LF as KeyCtrlJ, and tview v0.42.0's
// paste collector keeps only runes, Enter and Tab, so every newline of a
// pasted text would be lost. While a paste is in progress this wrapper turns
// KeyCtrlJ into KeyEnter (and drops the LF of a CRLF pair, whose CR already
// arrived as Enter); outside a paste Ctrl+J stays Ctrl+J, the newline key.
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
}

// Init initialises the screen unless New already did.
func (s *pasteScreen) Init() error {
	if s.initialised {
		s.initialised = false // a later Init (a screen swap) is real
		return nil
	}
	return s.Screen.Init()
}

// PollEvent returns the next event, repaired as described on pasteScreen.
func (s *pasteScreen) PollEvent() tcell.Event {
	for {
		ev := s.Screen.PollEvent()
		switch e := ev.(type) {
		case *tcell.EventPaste:
			s.pasting, s.lastCR = e.Start(), false
		case *tcell.EventKey:
			if !s.pasting {
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
