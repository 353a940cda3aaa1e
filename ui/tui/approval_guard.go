package tui

import (
	"sync"

	"github.com/gdamore/tcell/v2"
)

// fastKeys remembers the keys the screen handed on that arrived in a burst
// (within burstGap of a neighbour: pasted text, not a keypress). The polling
// goroutine marks them, the event loop takes them; safe for both.
type fastKeys struct {
	mu   sync.Mutex
	keys map[*tcell.EventKey]struct{}
}

// maxFastKeys bounds the set: a key nobody took (it never reached the
// capture) must not be kept for ever.
const maxFastKeys = 4096

// mark records ev as a burst key.
func (f *fastKeys) mark(ev *tcell.EventKey) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.keys == nil || len(f.keys) >= maxFastKeys {
		f.keys = map[*tcell.EventKey]struct{}{}
	}
	f.keys[ev] = struct{}{}
}

// take reports whether ev was a burst key, forgetting it.
func (f *fastKeys) take(ev *tcell.EventKey) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ok := f.keys[ev]
	delete(f.keys, ev)
	return ok
}

// burstApproval keeps a key that arrived in a burst from answering an
// approval: an approval is given only by a person's keypress, and text
// pasted (or typed by a script) while the approvals have the keys — "yes"
// pasted into an empty box — is no keypress. Into the empty input box the
// letter is typed as text (what follows is then the box's); elsewhere the
// key is dropped with a hint, and pressed again on its own it answers. Keys
// typed into the box's text are not concerned. It reports whether it took
// ev. Event loop only.
func (w *Workbench) burstApproval(ev *tcell.EventKey) bool {
	if !w.screen.fast.take(ev) {
		return false
	}
	if w.focus == paneInput && w.input.GetText() != "" {
		return false
	}
	act, ok := w.keys.Lookup([]Context{CtxApprovals}, ev)
	if !ok || !isApproval(act) || w.pendingCount() == 0 {
		return false
	}
	typing := w.focus == paneInput || w.focus == paneApprovals && w.approvalFocus.auto
	if typing && w.input.GetText() == "" && ev.Key() == tcell.KeyRune && ev.Modifiers()&^tcell.ModShift == 0 {
		// Typed fast at the empty box, or at the queue the request moved
		// the keys to ("sandwich"): its first letters are text, not
		// answers (a new user r21 lost "san"); the box takes the rest.
		w.dropHeld()
		w.setFocus(paneInput)
		w.approvalFocus.auto = false
		w.input.SetText(string(ev.Rune()), true)
		return true
	}
	w.hint("keys arriving as fast as a paste do not answer an approval: press " + keyLabel(ev) + " again")
	return true
}

// isApproval reports whether an action answers a pending approval (e, which
// opens a candidate's editor, is one: a paste never opens it).
func isApproval(act Action) bool {
	switch act {
	case ActAllowOnce, ActAllowSession, ActAllowAlways, ActDeny, ActDenyReason, ActEditCand:
		return true
	}
	return false
}

// keyLabel names the key of ev as the key bar does: the character itself for
// a letter ("y", not tcell's "Rune[y]"), tcell's name otherwise.
func keyLabel(ev *tcell.EventKey) string {
	if ev.Key() == tcell.KeyRune && ev.Modifiers() == tcell.ModNone {
		return string(ev.Rune())
	}
	return ev.Name()
}
