package tui

import (
	"strconv"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
)

// Approval first (issue 12, Found 1). A request that arrives while the input
// box is empty takes the focus to the Approvals pane (unless
// Options.KeepInputFocus: `[workbench] approval_focus = false`); the pane's title
// and the status line say an approval waits and name its keys; while the
// input box is empty, y/s/a/n/N answer the selected request even with the
// focus still there (as typed text they would be the whole prompt: "y"); with
// text in the box they type, and the box's title (the row above its text)
// names the key that jumps to the queue. When the last pending request is
// answered, the focus returns to the input box.
//
// With tabs (NU1: a new tab's "try" approved another tab's command), all of
// that is the shown tab's own: only a request of the shown tab that ARRIVES
// while it is shown takes the focus (never one already pending when the tab
// was opened or switched to, never another tab's), and the keys of an empty
// input box answer only the shown tab's requests; another tab's are answered
// from the queue itself (the jump key), its rows labelled "tab N · ".

// approvalFocus is the approval-first state, part of UIState.
type approvalFocus struct {
	seen int // pending requests (every tab's) at the last sync
	// own is the shown tab's pending requests at the last sync, of tab ownTab:
	// a rise is a request arriving in the tab on screen.
	own    int
	ownTab *sessionTab
	moved  bool // the focus went to the queue for a request (or an answer was given there): return it
	keepIn bool // Options.KeepInputFocus
	auto   bool // the focus is in the queue because a request arrived (no key put it there)
	// shown is where and since when each pending request was drawn in the
	// last frame (approval_shown.go): a key can answer only a request a
	// person could have seen.
	shown map[string]shownAt
}

// approvalGrace is how long after a request is first drawn an approval key
// from the input box, or from the queue the request itself focused, is still
// taken as typing rather than as an answer: a person typing the next prompt
// as the request appears ("say hi" — s allows for the session) answers
// nothing. Below a person's reaction time to read a prompt.
const approvalGrace = 400 * time.Millisecond

// answerable reports whether a key at now may answer a request first drawn
// at drawn (zero: never drawn): only one drawn at least approvalGrace
// before. Pure, for the table test.
func answerable(drawn, now time.Time) bool {
	return !drawn.IsZero() && now.Sub(drawn) >= approvalGrace
}

// approvalActions are the answers of the queue, in the key bar's order, with
// the key bar's short label and the diff pane's long one.
var approvalActions = []struct {
	act         Action
	short, long string
}{
	{ActAllowOnce, "once", "allow once"},
	{ActAllowSession, "session", "allow for the session"},
	{ActAllowAlways, "always", "always allow"},
	{ActDeny, "deny", "deny"},
	{ActDenyReason, "deny with reason", "deny with a reason"},
}

// pendingCount is the number of requests waiting for an answer in every
// tab's live session, the queue's pending rows (none while the shown tab
// shows another session read-only; approvals_tabs.go).
func (w *Workbench) pendingCount() int { return len(w.allPending()) }

// ownPending is the number of requests waiting in the shown tab's live
// session (its subagents' included), none while it shows a session
// read-only.
func (w *Workbench) ownPending() int {
	if w.sessionTab == nil || w.readOnly {
		return 0
	}
	return len(w.model.Approvals)
}

// approvalKeys returns the key bar's approval items ("y once", "s session",
// ...), as the key map binds them.
func (w *Workbench) approvalKeys() []string {
	var out []string
	keys, labels := w.answerItems() // a candidate's when one is ahead (candidate_answer.go)
	for i, k := range keys {
		out = append(out, k+" "+labels[i])
	}
	return out
}

// approvalKeyLetters is the approval keys as the key map binds them,
// "y/s/a/n/N".
func (w *Workbench) approvalKeyLetters() string {
	keys, _ := w.answerItems()
	return strings.Join(keys, "/")
}

// approvalStatus is the status line's short notice while a request waits,
// "⏵ approval: y/s/a/n/N" (the key bar and the queue's title name the keys
// in full).
func (w *Workbench) approvalStatus() string {
	return "⏵ approval: " + w.approvalKeyLetters()
}

// approvalWaiting is the queue title's and the key bar's notice while a
// request waits: "approval waiting — y once · s session · ...".
func (w *Workbench) approvalWaiting() string {
	return "approval waiting — " + strings.Join(w.approvalKeys(), " · ")
}

// jumpKey is the key that focuses the approval queue ("alt+3").
func (w *Workbench) jumpKey() string {
	k, _, _ := strings.Cut(w.keys.KeysOf(ActFocusAppr), "/")
	return k
}

// queueKeysApply reports whether the approval keys answer from where the
// focus is: the queue itself, an empty input box, or the diff pane showing
// the queue's request.
func (w *Workbench) queueKeysApply() bool {
	if w.pendingCount() == 0 || w.reasonFor != "" {
		return false
	}
	switch w.focus {
	case paneInput: // the shown tab's requests only: typing in a tab never answers another's
		return w.input.GetText() == "" && w.ownPending() > 0
	case paneDiff:
		return w.lastList == paneApprovals
	}
	return false
}

// approvalKey answers the selected request when ev is an approval key and
// queueKeysApply (the focus need not be on the queue), or when the queue
// has the focus; it reports whether it used the key. A key too soon after
// the request appeared (answerable), or a letter typed into the queue a
// request focused, goes back to the input box as typing.
func (w *Workbench) approvalKey(ev *tcell.EventKey) bool {
	if w.held.active && w.heldKey(ev) {
		return true
	}
	if w.focus != paneApprovals {
		w.approvalFocus.auto = false
	}
	auto := w.focus == paneApprovals && w.approvalFocus.auto
	if w.diffKeyFromQueue(ev) {
		return true
	}
	inQueue := w.focus == paneApprovals && w.pendingCount() > 0 && w.reasonFor == ""
	if !w.queueKeysApply() && !auto && !inQueue {
		return false
	}
	act, ok := w.keys.Lookup([]Context{CtxApprovals}, ev)
	if ok && act == ActEditCand && !w.candidateAhead(w.focus == paneInput) {
		ok = false // e edits only a candidate: for a tool request it is a letter like any other
	}
	if (!ok || !isAnswer(act)) && auto {
		w.approvalFocus.auto = false // a key of the queue's own (a move, a focus key): the person drives it
	}
	if !ok || !isAnswer(act) {
		if _, bound := w.keys.Lookup(w.contexts(), ev); w.focus == paneApprovals && !bound &&
			ev.Key() == tcell.KeyRune && ev.Modifiers()&(tcell.ModAlt|tcell.ModCtrl) == 0 {
			w.setFocus(paneInput) // typing: back to the input box, where the letter lands (never dropped)
		}
		return false
	}
	if w.focus == paneInput {
		w.selectOwnPending()
	} else {
		w.selectPending()
	}
	row, _ := w.approvals.selected()
	if !w.answerShown(row.Key) {
		w.hint(w.notShownHint())
	}
	if !answerable(w.shownSince(row.Key), w.now()) {
		if inQueue && !auto && w.answerShown(row.Key) { // the person put the focus here: no stray letter in the box
			w.hint("the request has just appeared or moved: read it, then press " + keyLabel(ev) + " again")
			return true
		}
		if w.focus == paneApprovals {
			w.setFocus(paneInput)
			w.approvalFocus.auto = false
		}
		return false // typed into the input box
	}
	if holdable(ev) {
		w.holdAnswer(act, ev.Rune(), row.Key) // approval_hold.go: the start of a message answers nothing
		return true
	}
	w.lastList = paneApprovals
	w.answerAct(act)
	return true
}

// answerAct gives the answer act to the selected request (N opens the
// reason field); an answer ends the queue's claim on the focus once nothing
// waits (syncApprovalFocus).
func (w *Workbench) answerAct(act Action) {
	w.approvalFocus.moved = w.approvalFocus.moved || w.focus == paneApprovals || act == ActDenyReason
	if act == ActDenyReason { // the reason field comes back to the queue: return from there
		w.startReason()
		return
	}
	w.answerSelected(act, "")
}

// isAnswer reports whether act answers a request (e: a candidate's edit).
func isAnswer(act Action) bool {
	if act == ActEditCand {
		return true
	}
	for _, a := range approvalActions {
		if a.act == act {
			return true
		}
	}
	return false
}

// selectPending moves the queue's selection to the first pending request
// when the selected row is not one (a history row).
func (w *Workbench) selectPending() {
	if row, ok := w.approvals.selected(); ok && w.isPending(row.Key) {
		return
	}
	if p := w.allPending(); len(p) > 0 {
		w.approvals.sel = p[0].a.RequestID
	}
}

// selectOwnPending moves the queue's selection to the shown tab's first
// pending request unless one of the shown tab's is selected: what the keys
// of an empty input box answer.
func (w *Workbench) selectOwnPending() {
	row, _ := w.approvals.selected()
	first := ""
	for _, e := range w.allPending() { // the shown tab's come first
		if e.tab != w.sessionTab {
			break
		}
		if e.a.RequestID == row.Key {
			return
		}
		if first == "" {
			first = e.a.RequestID
		}
	}
	if first != "" {
		w.approvals.sel = first
	}
}

// syncApprovalFocus runs before each frame: a new request selects itself in
// the queue (so the diff pane shows what y would answer) and, when it is the
// shown tab's and that tab's input box is empty, takes the focus to the
// queue (the requests a tab has when it is switched to are not new:
// showTab; the first tab's, at the workbench's start, are);
// when nothing waits any more, the focus the queue took comes back to the
// input box.
func (w *Workbench) syncApprovalFocus() {
	if w.replayEnd != 0 { // the log is still being replayed
		return
	}
	n, prev := w.pendingCount(), w.approvalFocus.seen
	w.approvalFocus.seen = n
	own, prevOwn := w.ownPending(), w.approvalFocus.own
	if t := w.approvalFocus.ownTab; t != w.sessionTab {
		if t != nil { // another tab shown since the last sync: what it has waiting is not arriving
			prevOwn = own
		}
		w.approvalFocus.ownTab = w.sessionTab
	}
	w.approvalFocus.own = own
	switch {
	case n > prev || own > prevOwn:
		w.selectPending()
		if own > prevOwn {
			w.selectOwnPending() // the focus goes to the shown tab's request: y answers that one
		}
		if w.focus != paneTimeline {
			w.lastList = paneApprovals
		}
		if own > prevOwn && !w.approvalFocus.keepIn && w.focus == paneInput && w.input.GetText() == "" && w.reasonFor == "" &&
			!w.browser.Open && w.prompt == nil && !w.helpOpen && !w.mcp.open && !w.wt.open && !w.rw.open && !w.ed.open && !w.mem.open {
			w.focusInFrame(paneApprovals)
			w.approvalFocus.moved, w.approvalFocus.auto = true, true
		}
	case n == 0 && prev > 0:
		if w.approvalFocus.moved && w.focus == paneApprovals && w.reasonFor == "" {
			w.focusInFrame(paneInput)
		}
		w.approvalFocus.moved = false
	}
}

// focusInFrame is setFocus for the frame's sync, which runs inside tview's
// draw (its lock held: Application.SetFocus would deadlock): see frameFocus.
func (w *Workbench) focusInFrame(i int) {
	w.focus = i
	if i == paneTimeline || i == paneApprovals {
		w.lastList = i
	}
	if w.zoom >= 0 && i != paneInput {
		w.zoom = i
	}
	w.frameFocus(w.pane(i))
}

// approvalsTitle is the queue's title in a pane width cells wide: its
// count n, the count of decided requests listed below the queue, while a
// request waits the notice with its keys, then the zoom mark. It is fitted,
// never cut: the long notice ("approval waiting — y once · ...") where it
// fits, else the short one ("⏵ y/s/a/n/N"); the decided count in its short
// form ("(0 · 2 done)") before it is dropped, and it is dropped only after
// the keys are the last words left; then the count alone, then the pane
// number and the keys.
func (w *Workbench) approvalsTitle(n, decided int, zoom string, width int) string {
	base := " 3 Approvals (" + itoa(n) + ")"
	long, short, tiny := base, base, " 3 ("+itoa(n)+")"
	if decided > 0 {
		long = base + " · " + itoa(decided) + " decided"
		short = " 3 Approvals (" + itoa(n) + " · " + itoa(decided) + " done)"
		tiny = " 3 (" + itoa(n) + " · " + itoa(decided) + " done)"
	}
	forms := []string{base, " 3 Approvals", " 3"}
	if decided > 0 {
		forms = []string{long, short, tiny, base, " 3 Approvals", " 3"}
	}
	if n > 0 {
		keys := "⏵ " + w.approvalKeyLetters()
		forms = []string{long + " · " + w.approvalWaiting(), long + " · " + keys, short + " · " + keys, base + " · " + keys}
		if decided > 0 {
			forms = append(forms, tiny+" "+keys, short, tiny)
		}
		forms = append(forms, base, " 3 "+keys, " 3")
	}
	for _, f := range forms {
		// zoom is tview-escaped (" [zoomed[]"); tview's own width function
		// reads its global styles, which a second workbench in a test writes.
		if t := f + zoom + " "; textWidth(strings.ReplaceAll(t, "[]", "]")) <= width-2 {
			return t
		}
	}
	return forms[len(forms)-1] + " "
}

// inputBanner is the input box's title while a request waits and the box
// has text (the approval keys type there): it names the key that jumps to
// the queue. "" otherwise.
func (w *Workbench) inputBanner() string {
	if w.pendingCount() == 0 || w.focus != paneInput || w.input.GetText() == "" || w.reasonFor != "" {
		return ""
	}
	return " approval waiting: " + w.jumpKey() + " goes to the queue (y/s/a/n/N answer there) "
}

// keyBarItems is the key bar's two groups: while a request waits, first
// the approval keys (after the jump key when, from here, they would type
// into the input box), then the diff pane's w/h/l where they act on it
// (diffBarKeys), then generic, the focused pane's other keys;
// fitKeyBar keeps the first group whole.
func (w *Workbench) keyBarItems(generic []string) (first, rest []string) {
	if w.pendingCount() == 0 {
		return nil, generic
	}
	first = w.approvalKeys()
	if !w.queueKeysApply() && w.focus != paneApprovals {
		first = append([]string{w.jumpKey() + " approvals:"}, first...)
	}
	return first, append(w.diffBarKeys(), generic...)
}

// genericContexts are the focused pane's key contexts without the queue's
// (its keys lead the bar while a request waits, keyBarItems).
func (w *Workbench) genericContexts() []Context {
	var out []Context
	for _, c := range w.contexts() {
		if c != CtxApprovals || w.pendingCount() == 0 {
			out = append(out, c)
		}
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }
