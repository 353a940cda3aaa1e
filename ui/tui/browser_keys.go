package tui

import (
	"github.com/gdamore/tcell/v2"
)

// The sessions browser's keys, as Crush's and fzf's pickers: it opens in the
// filter, where every printable key (no Ctrl or Alt) goes to the filter and
// Backspace edits it; commands there are on keys that type nothing — Enter
// opens, Ctrl+R resumes, Ctrl+D deletes, the arrows, PgUp/PgDn, Home/End move.
// Esc leaves the filter for the command mode, where the browser's single keys
// work (d, r, j, k, g, G, Enter, / back to the filter; another printable key
// goes back to the filter and is typed there); Esc there closes the browser,
// as Ctrl+C and Ctrl+O do from both.

// browserMove is what a key does in the browser.
type browserMove int

// The moves of browserRoute.
const (
	browserNothing     browserMove = iota // a key the browser has no use for
	browserType                           // the rune goes to the filter
	browserBackspace                      // the filter loses its last rune
	browserLeaveFilter                    // Esc in the filter: to the command mode
	browserEnterFilter                    // / in the command mode
	browserClose                          // Esc in the command mode, Ctrl+C, Ctrl+O
	browserAct                            // the returned action: open, resume, delete, a move
)

// browserRoute decides what a key does in the browser, by whether the filter
// has the keys (filtering) and the key map's actions for the key in the
// global context (global, "" when none) and the browser's (sessions: its own
// and the list keys). A pure function: the table test holds it.
func browserRoute(ev *tcell.EventKey, filtering bool, global, sessions Action) (browserMove, Action) {
	printable := ev.Key() == tcell.KeyRune && ev.Modifiers()&(tcell.ModAlt|tcell.ModCtrl) == 0
	switch {
	case global == ActQuit || global == ActSessions:
		return browserClose, ""
	case ev.Key() == tcell.KeyEscape && filtering:
		return browserLeaveFilter, ""
	case global == ActCancel:
		return browserClose, ""
	case ev.Key() == tcell.KeyBackspace || ev.Key() == tcell.KeyBackspace2:
		if filtering {
			return browserBackspace, ""
		}
		return browserNothing, ""
	case printable && filtering:
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
