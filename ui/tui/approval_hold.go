package tui

import (
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
)

// The commit delay (red team, round 2). A person starting a message while a
// request waits — "add tests", "yes…", "show…", "no wait" — must not answer
// it with the message's first letter. So an answer key typed as a letter
// (no Alt/Ctrl) is first held: the notices line says at once what it will
// do ("always allow… (any other key takes it back)"), and only when no
// further letter arrives within commitDelay, on the pump's clock, is it
// given. Another letter within the window takes the answer back and types
// every letter, the held one first, into the input box; any other key
// takes it back too; Enter or the same key again gives it at once. The
// persistent answers (a always, s session) need nothing more: the delay
// passes with the request on screen (answerShown) or nothing is given.

// commitDelay is how long a held answer waits for a further letter: longer
// than the gap between the keys of a typed word (~100–200 ms at a person's
// pace), short enough that "y" feels immediate.
const commitDelay = 300 * time.Millisecond

// heldAnswer is an answer key waiting for its commit delay, part of UIState.
type heldAnswer struct {
	active bool
	act    Action
	key    rune      // the letter typed
	name   string    // the answer's long name: "allow once"
	req    string    // the request it answers
	at     time.Time // when it was pressed (w.now)
	gen    int       // which hold the delay's timer belongs to
	cancel func()    // stops the delay's timer
}

// holdInput is what reaches a held answer: the delay's timer, or a key.
type holdInput struct {
	timer bool
	enter bool
	r     rune // a letter (KeyRune without Alt/Ctrl); 0 for any other key
}

// holdVerdict is what a holdInput does to a held answer.
type holdVerdict int

const (
	holdWait       holdVerdict = iota // keep holding (the timer came early)
	holdCommit                        // give the answer; the input is used up
	holdCommitPass                    // give the answer, then the key goes on as usual (it came after the window)
	holdTypeBack                      // take it back: the held letter and this one are typing
	holdTakeBack                      // take it back; the key is used up
)

// decideHold is the pure decision for a held answer of letter held pressed
// at at, given in arriving at now. Table-tested (keys with times → answer
// given or letters typed).
func decideHold(held rune, at time.Time, in holdInput, now time.Time) holdVerdict {
	late := now.Sub(at) >= commitDelay
	switch {
	case in.timer && late:
		return holdCommit
	case in.timer:
		return holdWait
	case in.enter, in.r == held:
		return holdCommit
	case late:
		return holdCommitPass
	case in.r != 0:
		return holdTypeBack
	}
	return holdTakeBack
}

// holdable reports whether ev, an answer key, is held rather than given at
// once: a letter typed without Alt or Ctrl (a chord is no message's start).
func holdable(ev *tcell.EventKey) bool {
	return ev.Key() == tcell.KeyRune && ev.Modifiers()&(tcell.ModAlt|tcell.ModCtrl) == 0
}

// holdAnswer holds act for the selected request (pressed as letter r) and
// starts the delay's timer on the pump's clock.
func (w *Workbench) holdAnswer(act Action, r rune, req string) {
	name := "answer"
	for _, a := range approvalActions {
		if a.act == act {
			name = a.long
		}
	}
	if c, ok := candidateAnswers[act]; ok && strings.HasPrefix(req, candidatePrefix) {
		name = c.long
	}
	h := &w.held
	h.gen++
	gen := h.gen
	*h = heldAnswer{active: true, act: act, key: r, name: name, req: req, at: w.now(), gen: gen}
	h.cancel = w.pump.after(commitDelay, func() { w.heldTimer(gen) })
	w.hint(name + "… (any other key takes it back)")
}

// heldTimer is the delay's end for hold gen.
func (w *Workbench) heldTimer(gen int) {
	if !w.held.active || w.held.gen != gen {
		return
	}
	if decideHold(w.held.key, w.held.at, holdInput{timer: true}, w.now()) == holdCommit {
		w.commitHeld()
	}
}

// heldKey runs ev against the held answer; it reports whether ev is used
// up. Event loop only.
func (w *Workbench) heldKey(ev *tcell.EventKey) bool {
	in := holdInput{enter: ev.Key() == tcell.KeyEnter && ev.Modifiers() == 0}
	if holdable(ev) {
		in.r = ev.Rune()
	}
	switch decideHold(w.held.key, w.held.at, in, w.now()) {
	case holdCommit:
		w.commitHeld()
		return true
	case holdCommitPass:
		w.commitHeld()
		return false
	case holdTypeBack:
		held := w.held.key
		w.dropHeld()
		w.setFocus(paneInput)
		w.approvalFocus.auto = false
		w.input.SetText(w.input.GetText()+string(held), true)
		return false // the key goes on into the input box
	case holdTakeBack:
		w.dropHeld()
		w.hint(w.held.name + " taken back")
		return true
	}
	return true
}

// dropHeld forgets the held answer and stops its timer.
func (w *Workbench) dropHeld() {
	if w.held.cancel != nil {
		w.held.cancel()
	}
	w.held.active, w.held.cancel = false, nil
	w.clearNoticeLine()
}

// commitHeld gives the held answer, if its request still waits and is on
// screen.
func (w *Workbench) commitHeld() {
	h := w.held
	w.dropHeld()
	if !w.isPending(h.req) || w.readOnly {
		return
	}
	if !w.answerShown(h.req) {
		w.hint(h.name + " not given: " + w.notShownHint())
		return
	}
	w.approvals.sel = h.req
	w.lastList = paneApprovals
	w.answerAct(h.act)
}
