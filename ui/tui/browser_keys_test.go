package tui

import (
	"testing"

	"github.com/gdamore/tcell/v2"
)

// TestBrowserRoute: in the filter every printable key types, commands are on
// keys that type nothing; Esc leaves the filter, then closes.
func TestBrowserRoute(t *testing.T) {
	km := DefaultKeyMap()
	r := func(ch rune) *tcell.EventKey { return tcell.NewEventKey(tcell.KeyRune, ch, tcell.ModNone) }
	k := func(key tcell.Key) *tcell.EventKey { return tcell.NewEventKey(key, 0, tcell.ModNone) }
	for _, tc := range []struct {
		name      string
		ev        *tcell.EventKey
		filtering bool
		move      browserMove
		act       Action
	}{
		{"d types in the filter", r('d'), true, browserType, ""},
		{"r types in the filter", r('r'), true, browserType, ""},
		{"j types in the filter", r('j'), true, browserType, ""},
		{"G types in the filter", r('G'), true, browserType, ""},
		{"slash types in the filter", r('/'), true, browserType, ""},
		{"q types in the filter", r('q'), true, browserType, ""},
		{"space types in the filter", r(' '), true, browserType, ""},
		{"Enter opens from the filter", k(tcell.KeyEnter), true, browserAct, ActOpenSession},
		{"Ctrl+R resumes from the filter", k(tcell.KeyCtrlR), true, browserAct, ActResume},
		{"Ctrl+D deletes from the filter", k(tcell.KeyCtrlD), true, browserAct, ActDelete},
		{"Down moves in the filter", k(tcell.KeyDown), true, browserAct, ActDown},
		{"PgUp moves in the filter", k(tcell.KeyPgUp), true, browserAct, ActPageUp},
		{"Backspace edits the filter", k(tcell.KeyBackspace2), true, browserBackspace, ""},
		{"Esc leaves the filter", k(tcell.KeyEscape), true, browserLeaveFilter, ""},
		{"Ctrl+C closes from the filter", k(tcell.KeyCtrlC), true, browserClose, ""},
		{"Ctrl+O closes from the filter", k(tcell.KeyCtrlO), true, browserClose, ""},
		{"Esc closes from the commands", k(tcell.KeyEscape), false, browserClose, ""},
		{"d deletes in the commands", r('d'), false, browserAct, ActDelete},
		{"r resumes in the commands", r('r'), false, browserAct, ActResume},
		{"j moves in the commands", r('j'), false, browserAct, ActDown},
		{"k moves in the commands", r('k'), false, browserAct, ActUp},
		{"G moves in the commands", r('G'), false, browserAct, ActBottom},
		{"Enter opens in the commands", k(tcell.KeyEnter), false, browserAct, ActOpenSession},
		{"Ctrl+D deletes in the commands", k(tcell.KeyCtrlD), false, browserAct, ActDelete},
		{"slash goes back to the filter", r('/'), false, browserEnterFilter, ""},
		{"another letter types into the filter", r('x'), false, browserType, ""},
		{"Backspace does nothing in the commands", k(tcell.KeyBackspace2), false, browserNothing, ""},
		{"Alt+d is nothing in the filter", tcell.NewEventKey(tcell.KeyRune, 'd', tcell.ModAlt), true, browserNothing, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			global, _ := km.Lookup([]Context{CtxGlobal}, tc.ev)
			sessions, _ := km.Lookup([]Context{CtxSessions, CtxList}, tc.ev)
			move, act := browserRoute(tc.ev, browserMode{filtering: tc.filtering}, global, sessions)
			if move != tc.move || act != tc.act {
				t.Fatalf("browserRoute = %v %q, want %v %q", move, act, tc.move, tc.act)
			}
		})
	}
}

// TestBrowserEscProgress: the key routing across the browser's states (delete
// prompt, filter mode with or without text, command mode with or without
// text): every Esc — also one that reaches the browser as Alt+Esc (two Esc
// presses a terminal glued together) — makes progress toward closing: the
// delete prompt goes, then the filter mode, then the filter's text, then the
// browser; Ctrl+U clears the filter in either mode.
func TestBrowserEscProgress(t *testing.T) {
	km := DefaultKeyMap()
	esc := tcell.NewEventKey(tcell.KeyEscape, 0, tcell.ModNone)
	altEsc := tcell.NewEventKey(tcell.KeyEscape, 0, tcell.ModAlt)
	ctrlU := tcell.NewEventKey(tcell.KeyCtrlU, 0, tcell.ModCtrl)
	y := tcell.NewEventKey(tcell.KeyRune, 'y', tcell.ModNone)
	for _, tc := range []struct {
		name string
		ev   *tcell.EventKey
		mode browserMode
		move browserMove
	}{
		{"Esc cancels the delete prompt", esc, browserMode{confirm: true, filtering: true, filter: true}, browserConfirmNo},
		{"y answers the delete prompt", y, browserMode{confirm: true, filtering: true}, browserConfirmYes},
		{"Ctrl+U in the delete prompt keeps the session", ctrlU, browserMode{confirm: true}, browserConfirmNo},
		{"Esc leaves the filter mode, text kept", esc, browserMode{filtering: true, filter: true}, browserLeaveFilter},
		{"Esc leaves the empty filter mode", esc, browserMode{filtering: true}, browserLeaveFilter},
		{"Esc clears the filter's text in the commands", esc, browserMode{filter: true}, browserClearFilter},
		{"Esc closes the commands without text", esc, browserMode{}, browserClose},
		{"Alt+Esc leaves the filter mode", altEsc, browserMode{filtering: true}, browserLeaveFilter},
		{"Alt+Esc clears the text", altEsc, browserMode{filter: true}, browserClearFilter},
		{"Alt+Esc closes", altEsc, browserMode{}, browserClose},
		{"Ctrl+U clears the filter in the filter mode", ctrlU, browserMode{filtering: true, filter: true}, browserClearFilter},
		{"Ctrl+U clears the filter in the commands", ctrlU, browserMode{filter: true}, browserClearFilter},
	} {
		t.Run(tc.name, func(t *testing.T) {
			global, _ := km.Lookup([]Context{CtxGlobal}, tc.ev)
			sessions, _ := km.Lookup([]Context{CtxSessions, CtxList}, tc.ev)
			if move, _ := browserRoute(tc.ev, tc.mode, global, sessions); move != tc.move {
				t.Fatalf("browserRoute = %v, want %v", move, tc.move)
			}
		})
	}
	// From every state, Esc presses alone close the browser within four.
	for _, start := range []browserMode{{confirm: true, filtering: true, filter: true}, {filtering: true, filter: true}, {filter: true}, {}} {
		m, closed := start, false
		for range 4 {
			global, _ := km.Lookup([]Context{CtxGlobal}, altEsc)
			switch move, _ := browserRoute(altEsc, m, global, ""); move {
			case browserConfirmNo:
				m.confirm = false
			case browserLeaveFilter:
				m.filtering = false
			case browserClearFilter:
				m.filter = false
			case browserClose:
				closed = true
			default:
				t.Fatalf("from %+v, Esc at %+v did %v: no progress", start, m, move)
			}
			if closed {
				break
			}
		}
		if !closed {
			t.Errorf("from %+v four Esc presses left the browser open", start)
		}
	}
}
