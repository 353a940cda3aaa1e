package tui

import (
	"fmt"
	"strings"
	"time"
)

// What a person could see (red team, round 2). An approval key answers only
// a request drawn in the last frame — its row in the Approvals pane, or the
// diff pane showing it — and only once it has been drawn in the same place
// for approvalGrace: a resize, another layout (F4), a zoom or a row that
// moves starts the grace again, so a key pressed as the screen changes
// answers nothing. At 40x10, where neither pane is drawn, the key says how
// to bring the request into view instead (notShownHint).

// shownAt is where a pending request was drawn in the last frame (sig:
// the screen's size, the two panes' rectangles, the row's place) and since
// when it has been drawn there.
type shownAt struct {
	sig   string
	since time.Time
}

// noteShown records, after a frame drew layout l on a width×height screen,
// which pending requests it showed and where. Event loop only (inside the
// frame's draw).
func (w *Workbench) noteShown(l layout, width, height int) {
	prev := w.approvalFocus.shown
	w.approvalFocus.shown = map[string]shownAt{}
	if w.readOnly || w.browser.Open || w.notices.open || w.helpOpen || w.mcp.open || w.wt.open || w.rw.open || w.ed.open || w.mem.open || w.prompt != nil {
		return
	}
	ar, dr := l.Panes[paneApprovals], l.Panes[paneDiff]
	index := map[string]int{}
	if ar.W > 2 && ar.H > 2 {
		for i, r := range w.approvals.rows() {
			index[r.Key] = i
		}
	}
	now := w.now()
	for _, e := range w.allPending() {
		a := e.a
		where := ""
		if i, ok := index[a.RequestID]; ok && i >= w.approvals.offset && i < w.approvals.offset+w.approvals.visible {
			where = fmt.Sprintf("row %d", i-w.approvals.offset)
		}
		if dr.W > 2 && dr.H > 2 && w.diff.visible > 0 && w.diff.key == "req:"+a.RequestID {
			where += " diff"
		}
		if where == "" {
			continue
		}
		sig := fmt.Sprintf("%dx%d %v %v %s", width, height, ar, dr, where)
		s := shownAt{sig: sig, since: now}
		if p, ok := prev[a.RequestID]; ok && p.sig == sig {
			s.since = p.since
		}
		w.approvalFocus.shown[a.RequestID] = s
	}
}

// answerShown reports whether the last frame drew request id.
func (w *Workbench) answerShown(id string) bool {
	_, ok := w.approvalFocus.shown[id]
	return ok
}

// shownSince is since when request id has been drawn where it is now; zero
// when the last frame did not draw it.
func (w *Workbench) shownSince(id string) time.Time {
	return w.approvalFocus.shown[id].since
}

// notShownHint is the notices line's advice when an approval key finds its
// request off the screen.
func (w *Workbench) notShownHint() string {
	zoom, _, _ := strings.Cut(w.keys.KeysOf(ActZoom), "/")
	return "the request is not on screen: make the window larger or zoom the queue (" + w.jumpKey() + " then " + zoom + ")"
}
