package tui

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// Tabs: the workbench holds several live sessions at once, each in a tab
// (tab.go) with its own panes' state and its own turn; the turns of
// different tabs run at the same time. Alt+T opens a tab on a new session,
// Alt+N / Alt+P go to the next / previous, /tab N to the Nth, Alt+W closes
// the shown one (never the last, never one whose turn runs). A tab opened
// with /tab new NAME runs its session in git worktree NAME on its own branch
// (Backend.OpenSession), so two tasks in one repository never touch the
// same files.

// tabKey runs a tab action. Event loop only.
func (w *Workbench) tabKey(act Action) {
	switch act {
	case ActTabNew:
		w.openTab("")
	case ActTabClose:
		w.closeTab()
	case ActTabNext:
		w.showTab(w.tabIndex() + 1)
	case ActTabPrev:
		w.showTab(w.tabIndex() - 1)
	case ActSplit:
		w.toggleSplit()
	}
}

// tabIndex is the position of the shown tab in w.tabs.
func (w *Workbench) tabIndex() int {
	for i, t := range w.tabs {
		if t == w.sessionTab {
			return i
		}
	}
	return 0
}

// showTab shows tab i (wrapping around both ends): its transcript, timeline,
// approvals and status. The input box keeps what is typed: Enter sends it
// to the tab shown then. The focus stays in the transcript or the timeline;
// from the queue or the diff pane it goes to the input box (the requests
// waiting when a tab is shown never take it: syncApprovalFocus). Event loop
// only.
func (w *Workbench) showTab(i int) {
	n := len(w.tabs)
	if n < 2 {
		w.hint("one tab: " + w.keys.KeysOf(ActTabNew) + " opens another")
		return
	}
	t := w.tabs[((i%n)+n)%n]
	if t == w.sessionTab {
		return
	}
	hadFocus, old := w.focus == paneTranscript, w.sessionTab
	w.sessionTab = t
	if w.split == t { // the split's other side comes to the front: the sides swap
		w.split = old
	}
	if t.liveID != "" {
		id := t.liveID
		w.liveSession.Store(&id)
	}
	switch {
	case hadFocus:
		w.focusWidget(t.view)
	case w.focus == paneApprovals || w.focus == paneDiff:
		// NU1: the queue's focus (a request of the tab left took it) does not
		// come along: the tab shown types into its input box.
		w.setFocus(paneInput)
	}
	w.approvalFocus.moved, w.approvalFocus.auto = false, false
}

// openTab opens a tab on a new session (in worktree NAME when worktree is
// not "") and shows it; the session is created off the event loop, the tab
// shows "opening…" until it is. Event loop only.
func (w *Workbench) openTab(worktree string) {
	be := w.be
	if be == nil {
		w.Notify("warning", "the store is still opening: try again in a moment")
		return
	}
	t := w.newTab()
	t.worktree = worktree
	w.tabs = append(w.tabs, t)
	w.showTab(len(w.tabs) - 1)
	w.goBackground(func() {
		id, err := be.OpenSession(w.ctx, worktree)
		if err != nil {
			w.pump.post(func() {
				w.notice("error", "new tab: "+err.Error())
				w.dropTab(t)
			})
			return
		}
		w.showSession(t, be, id, false)
		where := ""
		if worktree != "" {
			where = " in worktree " + worktree
		}
		w.Notify("info", fmt.Sprintf("tab %d: new session %s%s", w.tabNumber(t), id, where))
	})
}

// tabNumber is the 1-based number the tab bar shows for t (0: closed).
// Safe only on the event loop; Notify's text may race a close, harmlessly.
func (w *Workbench) tabNumber(t *sessionTab) int {
	for i, x := range w.tabs {
		if x == t {
			return i + 1
		}
	}
	return 0
}

// closeTab closes the shown tab: its follower stops, its session stays in
// the store (the sessions browser and --session reach it). It refuses the
// last tab and a tab whose turn runs (Esc cancels it first) or that has a
// prompt queued. Event loop only.
func (w *Workbench) closeTab() {
	switch {
	case len(w.tabs) < 2:
		w.hint("the last tab stays open (Ctrl+C quits)")
	case w.running:
		w.Notify("warning", "a turn is running in this tab: Esc cancels it, then close the tab")
	case w.queued != "":
		w.Notify("warning", "a prompt is queued in this tab: Esc takes it back, then close the tab")
	default:
		w.endTabShells(w.sessionTab)
		w.dropTab(w.sessionTab)
	}
}

// dropTab removes tab t and stops following its session; the tab before it
// (or the first) is shown if t was.
func (w *Workbench) dropTab(t *sessionTab) {
	i := w.tabNumber(t) - 1
	if i < 0 || len(w.tabs) < 2 {
		return
	}
	if t == w.sessionTab {
		w.showTab(i - 1)
	}
	w.tabs = append(w.tabs[:i:i], w.tabs[i+1:]...)
	if w.split == t {
		w.split = nil
	}
	w.pump.unfollow(t.key)
	w.publishSessions()
	if be, id := w.be, t.liveID; be != nil && id != "" { // its SessionEnd hooks, as a session left for another
		w.goBackground(func() { be.EndSession(w.ctx, id, "other") })
	}
}

// publishSessions publishes every tab's live session for SessionIDs.
// Event loop only.
func (w *Workbench) publishSessions() {
	ids := make([]string, 0, len(w.tabs))
	for _, t := range w.tabs {
		if t.liveID != "" {
			ids = append(ids, t.liveID)
		}
	}
	w.tabSessions.Store(&ids)
}

// SessionIDs returns the live session of every open tab, in tab order (the
// first tab's first; none before Attach): what the caller ends when the
// workbench quits (their SessionEnd hooks). Safe from any goroutine.
func (w *Workbench) SessionIDs() []string {
	if ids := w.tabSessions.Load(); ids != nil {
		return append([]string(nil), *ids...)
	}
	return nil
}

// slashTab is /tab: alone, the tabs listed on the notices line; /tab N shows
// tab N; /tab new [WORKTREE] opens a tab (its session in git worktree
// WORKTREE on its own branch when named); /tab close closes the shown one.
func (w *Workbench) slashTab(args []string) bool {
	if len(args) == 0 {
		w.hint(strings.Join(w.tabList(), "  "))
		return true
	}
	switch args[0] {
	case "new":
		if len(args) > 2 {
			w.Notify("warning", "usage: /tab new [WORKTREE]")
			return false
		}
		name := ""
		if len(args) == 2 {
			name = args[1]
		}
		w.openTab(name)
		return true
	case "close":
		w.closeTab()
		return true
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 1 || n > len(w.tabs) || len(args) > 1 {
		w.Notify("warning", fmt.Sprintf("usage: /tab N (1 to %d), /tab new [WORKTREE], /tab close", len(w.tabs)))
		return false
	}
	w.showTab(n - 1)
	return true
}

// tabList is one "N label" item per tab, the shown one marked with *.
func (w *Workbench) tabList() []string {
	out := make([]string, len(w.tabs))
	for i, t := range w.tabs {
		mark := ""
		if t == w.sessionTab {
			mark = "*"
		}
		out[i] = fmt.Sprintf("%d %s%s", i+1, t.label(), mark)
	}
	return out
}

// label names a tab: its worktree (the name it got: its directory's, once
// the session says where it works), else its session's short ID ("…" while
// the session is being opened).
func (t *sessionTab) label() string {
	switch {
	case t.worktree != "" && t.model.Status.Cwd != "":
		return filepath.Base(t.model.Status.Cwd)
	case t.worktree != "":
		return t.worktree
	case t.liveID != "":
		return shortID(t.liveID)
	}
	return "…"
}
