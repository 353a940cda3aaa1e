package tui

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// narrowWidth is the terminal width below which the panes are stacked.
const narrowWidth = 100

// rect is a screen rectangle.
type rect struct{ X, Y, W, H int }

// layout places every pane, the notices line, the banner above the input
// box, the status line and the help bar (computeLayout, layouts.go).
type layout struct {
	Panes   [paneCount]rect
	Notices rect
	Todos   rect
	Banner  rect
	Status  rect
	Help    rect
	Main    rect // the area of the four panes
	Tabs    rect // the tab bar (empty with one tab)
	Split   rect // the split view's other transcript, beside the shown one's (empty: no split)
}

// stack places panes one above the other in a column at x, sharing height by
// percentages; each gets at least 3 rows while the column has room, and the
// last takes what is left.
func stack(l *layout, panes, percent []int, x, width, height int) {
	hs := make([]int, len(panes))
	total := 0
	for i, p := range percent {
		hs[i] = max(height*p/100, 3)
		total += hs[i]
	}
	for i := 0; total > height && i < len(hs); i++ { // too little room: shrink from the top
		cut := min(hs[i], total-height)
		hs[i] -= cut
		total -= cut
	}
	y := 0
	for i, p := range panes {
		h := hs[i]
		if i == len(panes)-1 {
			h = max(height-y, 0)
		}
		l.Panes[p] = rect{x, y, width, h}
		y += h
	}
}

// rootView is the application's root primitive: it lays the panes out on
// every draw (so resizing is always safe), draws the status line, the help bar
// and the help screen, and routes focus, keys, pastes and clicks to the pane
// that has focus.
type rootView struct {
	*tview.Box
	w *Workbench
}

// pane returns the primitive of a pane index.
func (w *Workbench) pane(i int) tview.Primitive {
	switch i {
	case paneTranscript:
		return w.view
	case paneTimeline:
		return w.timeline
	case paneApprovals:
		return w.approvals
	case paneDiff:
		return w.diff
	}
	if w.reasonFor != "" {
		return w.reason
	}
	return w.input
}

// boxOf returns the tview.Box of a pane, for its border and title.
func (w *Workbench) boxOf(i int) *tview.Box {
	switch i {
	case paneTranscript:
		return w.view.Box
	case paneTimeline:
		return w.timeline.Box
	case paneApprovals:
		return w.approvals.Box
	case paneDiff:
		return w.diff.Box
	}
	if w.reasonFor != "" {
		return w.reason.Box
	}
	return w.input.Box
}

// Draw lays out and draws everything, on the event loop.
func (r *rootView) Draw(screen tcell.Screen) {
	w := r.w
	w.syncFrame() // every frame, tview's own after a key too, shows what was posted (the transcript too)
	w.send.SetCursorDrawn(w.cursorDrawn())
	_, _, width, height := r.GetRect()
	inputLines := strings.Count(w.input.GetText(), "\n") + 1
	if w.reasonFor != "" {
		inputLines = 1
	}
	l := w.currentLayout(width, height, inputLines)
	w.fitInput(l.Panes[paneInput])
	w.setTitles(l.Panes[paneApprovals].W)
	for i := 0; i < paneCount; i++ {
		rc := l.Panes[i]
		if rc.W <= 0 || rc.H <= 0 {
			continue
		}
		box := w.boxOf(i)
		if i == w.focus {
			box.SetBorderColor(w.theme.Color("accent"))
		} else {
			box.SetBorderColor(w.theme.Color("muted"))
		}
		p := w.pane(i)
		p.SetRect(rc.X, rc.Y, rc.W, rc.H)
		p.Draw(screen)
	}
	w.drawSplit(screen, l.Split)
	w.drawTabBar(screen, l.Tabs)
	w.noteShown(l, width, height) // before the overlays: noteShown knows which cover the panes
	w.drawTodos(screen, l.Todos)
	w.drawNotices(screen, l.Notices)
	w.drawStatus(screen, l.Status)
	w.drawHelpBar(screen, l.Help)
	if w.browser.Open {
		w.drawBrowser(screen, l.Main)
	}
	if w.notices.open {
		w.drawNoticesView(screen, l.Main)
	}
	if w.mcp.open {
		w.drawMCPView(screen, l.Main)
	}
	if w.wt.open {
		w.drawWorktreesView(screen, l.Main)
	}
	if w.rw.open {
		w.drawRewindView(screen, l.Main)
	}
	if w.mem.open {
		w.drawMemoryView(screen, l.Main)
	}
	if w.ed.open {
		w.drawEditor(screen, l.Main)
	}
	if w.helpOpen {
		w.drawHelpScreen(screen, l.Main)
	}
	if w.prompt != nil {
		w.drawPrompt(screen, l.Main)
	}
}

// fitInput scrolls the input box back to its top when its whole text
// fits: the box grows with its text, and a paste typed into a one-line box
// would otherwise stay scrolled down.
func (w *Workbench) fitInput(r rect) {
	innerW, innerH := r.W-2, r.H-2
	if innerW <= 0 || innerH <= 0 || w.reasonFor != "" {
		return
	}
	rows := 0
	for _, line := range strings.Split(w.input.GetText(), "\n") {
		rows += max(1, (textWidth(line)+innerW-1)/innerW)
	}
	if rows <= innerH {
		w.input.SetOffset(0, 0)
	}
}

// setTitles writes the pane titles: number, name, counts, zoom mark; the
// queue's fitted to its pane's width apprW.
func (w *Workbench) setTitles(apprW int) {
	zoomMark := func(i int) string {
		if w.zoom == i {
			return tview.Escape(" [zoomed]")
		}
		return ""
	}
	w.view.SetTitle(" 1 Transcript" + zoomMark(paneTranscript) + " ")
	w.diff.mark = zoomMark(paneDiff)
	w.timeline.SetTitle(fmt.Sprintf(" 2 Timeline (%d)%s ", len(w.model.Timeline), zoomMark(paneTimeline)))
	n := w.queueCount()
	if w.readOnly && w.travel == nil {
		n = 0
		w.approvals.SetTitle(fmt.Sprintf(" 3 Approvals history (%d)%s ", len(w.model.History), zoomMark(paneApprovals)))
	} else if w.travel != nil {
		w.approvals.SetTitle(w.travelApprovalsTitle(n, zoomMark(paneApprovals), apprW))
	} else {
		w.approvals.SetTitle(w.approvalsTitle(n, w.decidedCount(), zoomMark(paneApprovals), apprW))
	}
	if n > 0 {
		w.approvals.SetTitleColor(w.theme.Color("warning"))
	} else {
		w.approvals.SetTitleColor(w.theme.Color("accent"))
	}
	title := " Input "
	if w.running || w.model.Status.Turn == TurnRunning {
		title = " Input · a turn is running (Esc cancels it) "
	}
	if b := w.inputBanner(); b != "" {
		title = b
	}
	if q := w.queuedTitle(); q != "" {
		title = q
	}
	if t := w.searchTitle(); t != "" {
		title = t
	}
	w.input.SetTitle(title)
	w.setInputPlaceholder()
}

// Focus hands focus to the focused pane.
func (r *rootView) Focus(delegate func(p tview.Primitive)) { delegate(r.w.pane(r.w.focus)) }

// HasFocus reports whether any pane has focus.
func (r *rootView) HasFocus() bool {
	for i := 0; i < paneCount; i++ {
		if r.w.pane(i).HasFocus() {
			return true
		}
	}
	return false
}

// InputHandler passes keys the application capture let through to the
// focused pane (the input box, the reason field).
func (r *rootView) InputHandler() func(*tcell.EventKey, func(tview.Primitive)) {
	return r.WrapInputHandler(func(ev *tcell.EventKey, setFocus func(tview.Primitive)) {
		if h := r.w.pane(r.w.focus).InputHandler(); h != nil {
			h(ev, setFocus)
		}
	})
}

// PasteHandler puts a paste into the focused text field; pasted into a pane,
// it goes to the input box, which takes focus.
func (r *rootView) PasteHandler() func(string, func(tview.Primitive)) {
	return r.WrapPasteHandler(func(text string, setFocus func(tview.Primitive)) {
		w := r.w
		if w.promptPaste(text) || w.holdPasteAhead(text) {
			return
		}
		if w.ed.open {
			w.editorPaste(text)
			return
		}
		if w.focus != paneInput {
			w.setFocus(paneInput)
		}
		if h := w.pane(paneInput).PasteHandler(); h != nil {
			w.pasteIntoInput(text, func(t string) { h(t, setFocus) })
		}
	})
}

// MouseHandler (only while mouse capture is on) focuses the clicked pane and
// lets it handle the click.
func (r *rootView) MouseHandler() func(tview.MouseAction, *tcell.EventMouse, func(tview.Primitive)) (bool, tview.Primitive) {
	return r.WrapMouseHandler(func(action tview.MouseAction, ev *tcell.EventMouse, setFocus func(tview.Primitive)) (bool, tview.Primitive) {
		w := r.w
		if w.browser.Open || w.prompt != nil { // an overlay covers the panes
			return true, nil
		}
		x, y := ev.Position()
		for i := 0; i < paneCount; i++ {
			p := w.pane(i)
			px, py, pw, ph := p.GetRect()
			if x < px || y < py || x >= px+pw || y >= py+ph {
				continue
			}
			if action == tview.MouseLeftClick && i != w.focus {
				w.setFocus(i)
			}
			if h := p.MouseHandler(); h != nil {
				return h(action, ev, func(tview.Primitive) {})
			}
			return true, nil
		}
		return false, nil
	})
}
