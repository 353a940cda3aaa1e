package tui

import (
	"github.com/gdamore/tcell/v2"
)

// The sessions browser's keys, as Crush's and fzf's pickers: it opens in the
// filter, where every printable key (no Ctrl or Alt) goes to the filter and
// Backspace edits it; commands there are on keys that type nothing — Enter
// opens, Ctrl+R resumes, Ctrl+D deletes, the arrows, PgUp/PgDn, Home/End move,
// Ctrl+U clears the filter. Esc leaves the filter for the command mode, where
// the browser's single keys work (d, r, j, k, g, G, Enter, / back to the
// filter; another printable key goes back to the filter and is typed there).
// Every Esc makes progress toward closing: it answers no to the delete
// prompt, else leaves the filter mode, else clears the filter's text, else
// closes the browser (as Ctrl+C and Ctrl+O do from anywhere). An Esc with a
// modifier counts (two Esc presses a terminal glues together arrive as
// Alt+Esc).

// browserMove is what a key does in the browser.
type browserMove int

// The moves of browserRoute.
const (
	browserNothing     browserMove = iota // a key the browser has no use for
	browserType                           // the rune goes to the filter
	browserBackspace                      // the filter loses its last rune
	browserLeaveFilter                    // Esc in the filter: to the command mode
	browserEnterFilter                    // / in the command mode
	browserClearFilter                    // Ctrl+U, or Esc in the command mode with a filter: the filter empties
	browserClose                          // Esc in the command mode, Ctrl+C, Ctrl+O
	browserConfirmYes                     // y at the delete prompt: delete
	browserConfirmNo                      // any other key at the delete prompt: keep
	browserAct                            // the returned action: open, resume, delete, a move
)

// browserMode is the state of the browser a key is routed by.
type browserMode struct {
	confirm   bool // the delete prompt waits for y
	filtering bool // the filter has the printable keys (else the command mode)
	filter    bool // the filter holds text
}

// browserRoute decides what a key does in the browser, by its mode and the
// key map's actions for the key in the global context (global, "" when none)
// and the browser's (sessions: its own and the list keys). A pure function:
// the table tests hold it.
func browserRoute(ev *tcell.EventKey, m browserMode, global, sessions Action) (browserMove, Action) {
	printable := ev.Key() == tcell.KeyRune && ev.Modifiers()&(tcell.ModAlt|tcell.ModCtrl) == 0
	esc := ev.Key() == tcell.KeyEscape || global == ActCancel
	switch {
	case m.confirm && ev.Key() == tcell.KeyRune && (ev.Rune() == 'y' || ev.Rune() == 'Y'):
		return browserConfirmYes, ""
	case m.confirm:
		return browserConfirmNo, ""
	case global == ActQuit || global == ActSessions:
		return browserClose, ""
	case esc && m.filtering:
		return browserLeaveFilter, ""
	case esc && m.filter:
		return browserClearFilter, ""
	case esc:
		return browserClose, ""
	case ev.Key() == tcell.KeyCtrlU:
		return browserClearFilter, ""
	case ev.Key() == tcell.KeyBackspace || ev.Key() == tcell.KeyBackspace2:
		if m.filtering {
			return browserBackspace, ""
		}
		return browserNothing, ""
	case printable && m.filtering:
		return browserType, ""
	case sessions == ActFilter:
		return browserEnterFilter, ""
	case sessions != "":
		return browserAct, sessions
	case printable:
		return browserType, "" // the command mode has no use for it: it starts the filter
	}
	return browserNothing, ""
}
