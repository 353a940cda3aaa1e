package tui

import (
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// quitWindow is how soon a second Ctrl+C must follow the first to quit.
const quitWindow = 2 * time.Second

// capture is the application's input capture: it sees every key first (the
// input box would swallow Tab), looks it up in the key map for the focused
// pane and acts. Keys it does not use go on to the focused text field; in
// the panes, unbound keys are dropped. It runs on the event loop: it mutates
// state directly and never queues updates.
func (w *Workbench) capture(ev *tcell.EventKey) *tcell.EventKey {
	w.pump.drain() // a key acts on the state the background work has posted so far
	w.applyFrameFocus()
	if w.prompt != nil {
		w.promptKey(ev)
		return nil
	}
	if w.holdTypeAhead(ev) { // a /model flow's prompt is about to open: never the input box
		return nil
	}
	if w.ed.open {
		w.editorKey(ev)
		return nil
	}
	if w.helpOpen {
		w.helpKey(ev)
		return nil
	}
	if w.notices.open {
		w.noticesKey(ev)
		return nil
	}
	if w.mcp.open {
		w.mcpKey(ev)
		return nil
	}
	if w.wt.open {
		w.worktreesKey(ev)
		return nil
	}
	if w.rw.open {
		w.rewindKey(ev)
		return nil
	}
	if w.mem.open {
		w.memoryKey(ev)
		return nil
	}
	if w.reasonFor != "" {
		return w.reasonKey(ev)
	}
	if w.browser.Open {
		w.browserKey(ev)
		return nil
	}
	if w.burstApproval(ev) { // before any routing: a pasted "y" never approves
		return nil
	}
	if w.in.search != nil {
		return w.searchKey(ev)
	}
	if w.approvalKey(ev) {
		w.lastCtrlC = time.Time{}
		return nil
	}
	if w.travelKeyEvent(ev) { // a session shown read-only: time travel (timetravel_keys.go)
		return nil
	}
	if w.focus == paneInput && w.placeholderKey(ev) {
		return nil
	}
	act, ok := w.keys.Lookup(w.contexts(), ev)
	if !ok {
		switch {
		case ev.Key() == tcell.KeyCtrlC:
			return nil // tview would stop the application without stopping the pump
		case w.focus == paneInput:
			return ev
		}
		return nil
	}
	if act != ActQuit {
		w.lastCtrlC = time.Time{}
	}
	switch act {
	case ActQuit:
		if !w.lastCtrlC.IsZero() && time.Since(w.lastCtrlC) < quitWindow {
			w.stopAsync()
			return nil
		}
		w.lastCtrlC = time.Now()
		if cancel := w.turnCancel; cancel != nil {
			// As Claude Code's: the first Ctrl+C interrupts the running
			// turn (new user r24 #6: it kept streaming); the box's text
			// stays (it is the draft a quit keeps).
			cancel()
			w.hint("cancelling the turn… (Ctrl+C again quits)")
			return nil
		}
		w.hint("press Ctrl+C again to quit")
	case ActCancel:
		w.cancelOrClose()
	case ActSend:
		w.submit(w.input.GetText())
	case ActNewline:
		return tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone) // the text area inserts a line
	case ActFocusNext:
		if w.focus == paneInput && (w.completeSlash() || w.completeModel(w.input.GetText()) || w.completeMention()) {
			return nil
		}
		w.setFocus((w.focus + 1) % paneCount)
	case ActFocusPrev:
		w.setFocus((w.focus + paneCount - 1) % paneCount)
	case ActFocusTrans, ActFocusTime, ActFocusAppr, ActFocusDiff, ActFocusInput:
		w.setFocus(map[Action]int{ActFocusTrans: paneTranscript, ActFocusTime: paneTimeline,
			ActFocusAppr: paneApprovals, ActFocusDiff: paneDiff, ActFocusInput: paneInput}[act])
	case ActZoom:
		w.toggleZoom()
	case ActHelp, ActHelpAnywhere:
		w.helpOpen, w.helpOffset = true, 0
	case ActMouse:
		w.mouse = !w.mouse
		w.app.EnableMouse(w.mouse)
		if w.mouse {
			w.hint("mouse capture on (F2 turns it off to select text)")
		} else {
			w.hint("mouse capture off: the terminal selects text")
		}
	case ActNotices:
		w.notices.open, w.notices.offset = true, 0
	case ActLayout:
		w.cycleLayout()
	case ActMode, ActModeInput:
		w.cycleMode()
	case ActSessions:
		w.openBrowser()
	case ActToggle:
		if b, ok := w.view.Selected(); ok {
			w.view.Toggle(b.ID)
		}
	case ActAllowOnce, ActAllowSession, ActAllowAlways, ActDeny, ActDenyReason:
		w.answerAct(act)
	case ActSubToggle, ActSubOpen, ActSubCancel:
		w.subagentKey(act) // children_keys.go
	case ActWrap, ActLeft, ActRight:
		w.diff.scroll(act)
	case ActHistoryPrev, ActHistoryNext:
		return w.historyKey(act, ev)
	case ActHistorySearch:
		w.startSearch()
	case ActScrollUp, ActScrollDown:
		w.scrollTranscript(act)
	case ActRetry:
		w.retry()
	case ActTabNew, ActTabClose, ActTabNext, ActTabPrev, ActSplit:
		w.tabKey(act)
	default:
		if isNavigation(act) {
			w.navigate(act)
		}
	}
	return nil
}

// helpKey handles a key while the help screen is open: Esc, ?, F1, q or
// Ctrl+C close it; "/" closes it and starts a slash command in the empty
// input box; the list keys scroll it.
func (w *Workbench) helpKey(ev *tcell.EventKey) {
	switch {
	case ev.Key() == tcell.KeyEscape, ev.Key() == tcell.KeyF1, ev.Key() == tcell.KeyCtrlC,
		ev.Key() == tcell.KeyRune && (ev.Rune() == '?' || ev.Rune() == 'q'):
		w.helpOpen, w.helpTopic = false, ""
		return
	case ev.Key() == tcell.KeyRune && ev.Rune() == '/' && w.input.GetText() == "":
		// A slash command typed over the screen (/bashes bash_1 while
		// /bashes lists them: new user r21 finding 15) starts in the box.
		w.helpOpen, w.helpTopic = false, ""
		w.setFocus(paneInput)
		w.input.SetText("/", true)
		return
	}
	act, _ := w.keys.Lookup([]Context{CtxList}, ev)
	switch act {
	case ActDown:
		w.helpOffset++
	case ActUp:
		w.helpOffset = max(0, w.helpOffset-1)
	case ActPageDown:
		w.helpOffset += 10
	case ActPageUp:
		w.helpOffset = max(0, w.helpOffset-10)
	case ActTop:
		w.helpOffset = 0
	case ActBottom:
		w.helpOffset = 1 << 20 // clamped when drawn
	}
}

// cancelOrClose is Esc: leave zoom, else come back from a session shown
// read-only to the live one, else cancel the running turn (the agent then
// resolves its pending requests as unanswered denials, app.CancelledReason): Esc cancels only
// when nothing else is open to close.
func (w *Workbench) cancelOrClose() {
	cancel, readOnly, live, be, t := w.turnCancel, w.readOnly, w.liveID, w.be, w.sessionTab
	switch { // what is open closes first; the turn is cancelled only when nothing is
	case w.zoom >= 0:
		w.zoom = -1
	case w.unqueue():
	case readOnly:
		w.goBackground(func() {
			w.showSession(t, be, live, false)
			w.Notify("info", "back to session "+live)
		})
	case cancel != nil:
		cancel()
		w.hint("cancelling the turn…")
	case w.focus == paneInput && w.input.GetText() == "":
		w.escOnEmptyInput() // Esc Esc: /rewind (rewind_keys.go)
	}
}

// navigate moves in the focused pane.
func (w *Workbench) navigate(act Action) {
	switch w.focus {
	case paneTimeline:
		w.timeline.move(act)
		w.lastList = paneTimeline
	case paneApprovals:
		w.approvals.move(act)
		w.lastList = paneApprovals
	case paneDiff:
		w.diff.scroll(act)
	case paneTranscript:
		canonical := map[Action]tcell.Key{ActDown: tcell.KeyDown, ActUp: tcell.KeyUp, ActTop: tcell.KeyHome,
			ActBottom: tcell.KeyEnd, ActPageDown: tcell.KeyPgDn, ActPageUp: tcell.KeyPgUp}[act]
		if act == ActBottom {
			w.view.Follow(true)
		}
		if h := w.view.InputHandler(); h != nil {
			h(tcell.NewEventKey(canonical, 0, tcell.ModNone), func(tview.Primitive) {})
		}
	}
}

// setFocus moves the focus to a pane. While a pane is zoomed, focusing
// another pane zooms that one instead.
func (w *Workbench) setFocus(i int) {
	w.focus = i
	if i == paneTimeline || i == paneApprovals {
		w.lastList = i
	}
	if w.zoom >= 0 && i != paneInput {
		w.zoom = i
	}
	w.focusWidget(w.pane(i))
}

// toggleZoom zooms the focused pane to the whole area above the input box, or
// back.
func (w *Workbench) toggleZoom() {
	switch {
	case w.zoom >= 0:
		w.zoom = -1
	case w.focus != paneInput:
		w.zoom = w.focus
	}
}
