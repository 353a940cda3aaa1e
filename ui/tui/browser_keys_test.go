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
			move, act := browserRoute(tc.ev, tc.filtering, global, sessions)
			if move != tc.move || act != tc.act {
				t.Fatalf("browserRoute = %v %q, want %v %q", move, act, tc.move, tc.act)
			}
		})
	}
}
