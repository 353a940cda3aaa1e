package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/app"
)

// escEscWindow is how soon a second Esc on an empty input box must follow
// the first to open /rewind (Claude Code's Esc Esc).
const escEscWindow = time.Second

// escOnEmptyInput is an Esc that closed and cancelled nothing, with the focus
// in an empty input box: the second within escEscWindow of the first opens
// the rewind view of the live session. Event loop only.
func (w *Workbench) escOnEmptyInput() {
	now := w.now()
	if w.rw.escAt.IsZero() || now.Sub(w.rw.escAt) > escEscWindow {
		w.rw.escAt = now
		return
	}
	w.rw.escAt = time.Time{}
	if why := w.OpenRewind(w.liveID, 0); why != "" {
		w.hint("rewind: " + why)
	}
}

// rewindKey handles a key while the view is open. The list: the list keys
// select, Enter goes to the choice, Esc, q or Ctrl+C close. The choice: the
// list keys or 1-4 select, Enter runs the selected answer, Esc goes back to
// the list. Nothing here changes a file or the session without a further
// step: a code restore waits in the approval queue (whose keys a burst never
// answers), a conversation restore only adds a branch session. Event loop
// only.
func (w *Workbench) rewindKey(ev *tcell.EventKey) {
	plain := ev.Key() == tcell.KeyRune && ev.Modifiers()&(tcell.ModAlt|tcell.ModCtrl) == 0
	v := &w.rw
	if v.choose {
		switch {
		case ev.Key() == tcell.KeyEscape:
			v.choose = false
			return
		case ev.Key() == tcell.KeyCtrlC:
			v.open = false
			return
		case plain && ev.Rune() >= '1' && int(ev.Rune()-'1') < len(rewindOptions):
			v.option = int(ev.Rune() - '1')
			return
		case ev.Key() == tcell.KeyEnter:
			w.rewindChosen()
			return
		}
		act, _ := w.keys.Lookup([]Context{CtxList}, ev)
		switch act {
		case ActDown:
			v.option = min(v.option+1, len(rewindOptions)-1)
		case ActUp:
			v.option = max(0, v.option-1)
		}
		return
	}
	switch {
	case ev.Key() == tcell.KeyEscape, ev.Key() == tcell.KeyCtrlC, plain && ev.Rune() == 'q':
		v.open = false
		return
	case ev.Key() == tcell.KeyEnter:
		if len(v.turns) > 0 && v.err == "" && !v.loading {
			v.choose, v.option = true, 0
		}
		return
	}
	act, _ := w.keys.Lookup([]Context{CtxList}, ev)
	n := len(v.turns)
	switch act {
	case ActDown:
		v.sel = min(v.sel+1, max(n-1, 0))
	case ActUp:
		v.sel = max(0, v.sel-1)
	case ActPageDown, ActBottom:
		v.sel = max(n-1, 0)
	case ActPageUp, ActTop:
		v.sel = 0
	}
}

// rewindChosen runs the selected answer of the choice: Never mind closes;
// an answer that cannot be (a conversation-only rewind to before turn 1)
// says why; any other closes the view and asks core to rewind, off the event
// loop (the code restore waits in the approval queue meanwhile). A
// conversation rewind then shows its branch in this tab.
func (w *Workbench) rewindChosen() {
	v := &w.rw
	o, t := rewindOptions[v.option], v.turns[v.sel]
	if !o.code && !o.conversation {
		v.open = false
		w.hint("rewind: nothing changed")
		return
	}
	if why := rewindUnavailable(o, t.Number); why != "" {
		w.hint("rewind: " + why)
		return
	}
	rb, ok := w.be.(rewindBackend)
	if !ok || w.running || v.session != w.liveID || w.readOnly {
		v.open = false
		w.hint("rewind: the session changed meanwhile: open /rewind again")
		return
	}
	v.open, v.busy, v.busyID = false, true, v.session
	be, tab, id := w.be, w.sessionTab, v.session
	choice := app.RewindChoice{Turn: t.Number, Code: o.code, Conversation: o.conversation}
	if o.code {
		w.hint(fmt.Sprintf("rewind: the code restore to before turn %d waits in the approval queue (its diff in the diff pane)", t.Number))
	}
	w.goBackground(func() {
		out, err := rb.RewindSession(w.ctx, id, choice)
		if err == nil && out.Branch != "" {
			w.resumeSession(tab, be, id, out.Branch) // the branch's transcript, live
		}
		w.pump.post(func() {
			w.rw.busy, w.rw.busyID = false, ""
			w.rewindReport(choice, out, err)
		})
	})
}

// rewindWaits reports whether a rewind of this process runs on session id:
// its approval requests wait in this process's queue (no turn runs then).
func (w *Workbench) rewindWaits(id string) bool { return w.rw.busy && w.rw.busyID == id }

// rewindReport puts what a rewind did on the notices line and in the
// transcript.
func (w *Workbench) rewindReport(c app.RewindChoice, out app.RewindOutcome, err error) {
	switch {
	case err != nil:
		w.notice("error", "rewind: "+err.Error())
		return
	case out.Declined:
		w.notice("info", "rewind: nothing changed (the code restore was denied)")
		return
	}
	note := "" // said once, in the notice of the code's outcome
	if c.Conversation && c.Turn == 1 {
		note = "; " + keptBeforeTurnOne
	}
	if c.Code {
		switch {
		case len(out.Restored) > 0:
			w.notice("info", fmt.Sprintf("rewind: restored %s to before turn %d: %s", nFilesText(len(out.Restored)), c.Turn, fileList(out.Restored, 6))+note)
		case len(out.Kept) == 0:
			w.notice("info", fmt.Sprintf("rewind: no file change to undo from turn %d on", c.Turn)+note)
		default:
			w.notice("info", fmt.Sprintf("rewind: restored no file to before turn %d", c.Turn)+note)
		}
		if len(out.Kept) > 0 {
			w.notice("warning", fmt.Sprintf("rewind: kept %s changed outside pincer: %s", nFilesText(len(out.Kept)), strings.Join(out.Kept, ", ")))
		}
	}
	if out.Branch != "" {
		w.notice("info", fmt.Sprintf("rewind: the conversation continues in branch %s (before turn %d); the old one stays as it was (Ctrl+O)", out.Branch, c.Turn))
	}
}
