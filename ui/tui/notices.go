package tui

import (
	"strconv"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"
)

// maxRecentNotices is how many notices the expanded view keeps.
const maxRecentNotices = 200

// notice is one local message of the workbench (command output, a warning,
// an error, a key's confirmation): not from the event log.
type notice struct {
	level string // info, warning, error
	text  string
	at    time.Time
}

// noticeState is the notices line and its expanded view.
type noticeState struct {
	recent []notice // oldest first, at most maxRecentNotices
	line   bool     // the newest notice is on the notices line
	open   bool     // the expanded view (ActNotices) covers the panes
	offset int      // rows scrolled up from the newest in the expanded view
}

// notice shows a local message on the notices line (wrapped, never cut) and
// keeps it in the expanded view; warnings, errors and command output also
// go into the transcript, where they happened. Event loop only; Notify is
// the same from any goroutine.
func (w *Workbench) notice(level, text string) { w.noticeFor(w.sessionTab, level, text) }

// noticeFor is notice raised by tab t's work (its turn, its session's
// switch): the transcript line goes to t's, shown or not. Event loop only.
func (w *Workbench) noticeFor(t *sessionTab, level, text string) {
	w.pushNotice(level, text)
	mark := map[string]string{"warning": "warning: ", "error": "error: "}[level]
	w.addNoteFor(t, mark+text)
}

// hint is a notice for the notices line and the expanded view only: a key's
// confirmation ("press Ctrl+C again to quit", "mouse capture on") that would
// only clutter the transcript. Event loop only.
func (w *Workbench) hint(text string) { w.pushNotice("info", text) }

// pushNotice records a notice and puts it on the line.
func (w *Workbench) pushNotice(level, text string) {
	text = strings.TrimRight(text, "\n")
	if text == "" {
		return
	}
	w.notices.recent = append(w.notices.recent, notice{level: level, text: text, at: time.Now()})
	if n := len(w.notices.recent); n > maxRecentNotices {
		w.notices.recent = append([]notice(nil), w.notices.recent[n-maxRecentNotices:]...)
	}
	w.notices.line = true
}

// clearNoticeLine takes the notice off the line (it stays in the expanded
// view): a new turn starts with a clean line.
func (w *Workbench) clearNoticeLine() { w.notices.line = false }

// lineNotice is the notice on the line, if any.
func (w *Workbench) lineNotice() (notice, bool) {
	if !w.notices.line || len(w.notices.recent) == 0 {
		return notice{}, false
	}
	return w.notices.recent[len(w.notices.recent)-1], true
}

// noticeRows is how many rows the notices line needs at width: the newest
// notice wrapped, at most maxNoticeRows (0 when the line is empty).
func (w *Workbench) noticeRows(width int) int {
	n, ok := w.lineNotice()
	if !ok {
		return 0
	}
	return min(len(wrapCells(n.text, width-2)), maxNoticeRows)
}

// noticeStyle is the style of a notice's level.
func (w *Workbench) noticeStyle(level string) tcell.Style {
	switch level {
	case "error":
		return w.theme.Style("error").Bold(true)
	case "warning":
		return w.theme.Style("warning").Bold(true)
	}
	return w.theme.Style("accent")
}

// drawNotices draws the notices line: the newest notice wrapped over the
// rows it was given; when it needs more, the last row ends saying which key
// shows it whole.
func (w *Workbench) drawNotices(screen tcell.Screen, r rect) {
	n, ok := w.lineNotice()
	if !ok || r.W <= 2 || r.H <= 0 {
		return
	}
	rows := wrapCells(n.text, r.W-2)
	st := w.noticeStyle(n.level)
	if len(rows) > r.H {
		more := " … " + w.keys.KeysOf(ActNotices) + " shows all"
		rows = rows[:r.H]
		last := wrapCells(rows[r.H-1], max(r.W-2-textWidth(more), 1))
		rows[r.H-1] = last[0] + more
	}
	for i, row := range rows {
		fillRow(screen, r.X, r.Y+i, r.W, w.theme.Style("text"))
		printAt(screen, r.X+1, r.Y+i, r.W-2, row, st)
	}
}

// drawNoticesView draws the expanded view over the panes: every recent
// notice, wrapped, newest at the bottom, scrolled by offset.
func (w *Workbench) drawNoticesView(screen tcell.Screen, r rect) {
	if r.W < 10 || r.H < 3 {
		return
	}
	text := w.theme.Style("text")
	for y := r.Y; y < r.Y+r.H; y++ {
		fillRow(screen, r.X, y, r.W, text)
	}
	head := "Notices (" + strconv.Itoa(len(w.notices.recent)) + ") — Esc or " + w.keys.KeysOf(ActNotices) + " closes; j/k scroll"
	printAt(screen, r.X+2, r.Y, r.W-4, head, w.theme.Style("accent").Bold(true))
	type row struct {
		text  string
		style tcell.Style
	}
	var rows []row
	for _, n := range w.notices.recent {
		stamp := n.at.Format("15:04:05") + "  "
		for i, line := range wrapCells(n.text, r.W-4-len(stamp)) {
			if i > 0 {
				stamp = strings.Repeat(" ", len(stamp))
			}
			rows = append(rows, row{stamp + line, w.noticeStyle(n.level)})
		}
	}
	if len(rows) == 0 {
		rows = append(rows, row{"nothing yet", w.theme.Style("muted")})
	}
	height := r.H - 2
	w.notices.offset = max(0, min(w.notices.offset, len(rows)-height))
	end := len(rows) - w.notices.offset
	start := max(0, end-height)
	for i, rw := range rows[start:end] {
		printAt(screen, r.X+2, r.Y+2+i, r.W-4, rw.text, rw.style)
	}
}

// noticesKey handles a key while the expanded view is open: Esc, the
// notices key, q or Ctrl+C close it; the list keys scroll it.
func (w *Workbench) noticesKey(ev *tcell.EventKey) {
	if act, ok := w.keys.Lookup([]Context{CtxGlobal}, ev); ok && act == ActNotices ||
		ev.Key() == tcell.KeyEscape || ev.Key() == tcell.KeyCtrlC || ev.Key() == tcell.KeyRune && ev.Rune() == 'q' {
		w.notices.open = false
		return
	}
	act, _ := w.keys.Lookup([]Context{CtxList}, ev)
	switch act {
	case ActUp:
		w.notices.offset++
	case ActDown:
		w.notices.offset = max(0, w.notices.offset-1)
	case ActPageUp:
		w.notices.offset += 10
	case ActPageDown:
		w.notices.offset = max(0, w.notices.offset-10)
	case ActTop:
		w.notices.offset = 1 << 20 // clamped when drawn
	case ActBottom:
		w.notices.offset = 0
	}
}

// wrapCells breaks text into rows of at most width cells: at spaces where it
// can, inside a word that is wider than a row, at every newline; wide
// characters and grapheme clusters are never split.
func wrapCells(text string, width int) []string {
	width = max(width, 1)
	var rows []string
	for _, para := range strings.Split(text, "\n") {
		var cur strings.Builder
		curW := 0
		lastSpace, lastSpaceW := -1, 0 // byte offset in cur after the last space, and cur's width there
		g := uniseg.NewGraphemes(para)
		for g.Next() {
			cl, cw := g.Str(), g.Width()
			if curW+cw > width && curW > 0 {
				line := cur.String()
				if cl != " " && lastSpace > 0 {
					rows = append(rows, strings.TrimRight(line[:lastSpace], " "))
					rest := line[lastSpace:]
					cur.Reset()
					cur.WriteString(rest)
					curW -= lastSpaceW
				} else {
					rows = append(rows, strings.TrimRight(line, " "))
					cur.Reset()
					curW = 0
				}
				lastSpace = -1
				if cl == " " {
					continue
				}
			}
			cur.WriteString(cl)
			curW += cw
			if cl == " " {
				lastSpace, lastSpaceW = cur.Len(), curW
			}
		}
		rows = append(rows, cur.String())
	}
	return rows
}
