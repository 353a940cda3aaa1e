package tui

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/app"
	"pincer/ui/termtext"
)

// The /rewind view (Esc Esc on an empty input box opens it too), as Claude
// Code's: the live session's turns, each with the first line of its prompt,
// when it started and the files it changed (app.Backend.RewindTurns); Enter
// on one asks what to restore to the point before it — code and
// conversation, the conversation only, the code only, or never mind. The
// rewind itself is core's (app.Backend.RewindSession): a code restore waits
// in the approval queue as a Rewind row whose diff the diff pane shows (and
// a second, louder row for the files changed outside pincer since the
// checkpoint), a conversation restore starts a branch session the tab then
// shows. The view only chooses; nothing here reads or writes a file.

// rewindBackend is the part of a Backend that rewinds (app.Backend has it; a
// backend without it has no /rewind).
type rewindBackend interface {
	RewindTurns(ctx context.Context, sessionID string) ([]app.TurnSummary, error)
	RewindSession(ctx context.Context, sessionID string, c app.RewindChoice) (app.RewindOutcome, error)
}

// rewindView is the view's part of UIState.
type rewindView struct {
	open    bool
	loading bool   // the turns are being read
	err     string // why they could not be
	session string // the session whose turns are listed
	turns   []app.TurnSummary
	sel     int        // the selected turn (index into turns)
	choose  bool       // the mode choice of the selected turn is up
	option  int        // the selected choice (index into rewindOptions)
	want    rewindWant // the turn to go to the choice of once the list is in (OpenRewind)
	busy    bool       // a rewind runs (its approval may be pending)
	busyID  string     // the session it runs on: its requests are answered here (waitsHere)
	// escAt is when the last lone Esc on an empty input box came (Esc Esc
	// opens the view: rewind_keys.go); zero: none pending.
	escAt time.Time
}

// rewindWant names the turn whose choice the view opens at once the turns
// are in: by number (from 1, as /rewind N and `pincer rewind --turn` count)
// or, from a time-travel step, by turn ID (a branch session's numbers come
// from its messages, not from its log's turn.started events). Zero: the list.
type rewindWant struct {
	number int
	id     string
}

// rewindOption is one answer of the mode choice.
type rewindOption struct {
	label              string
	code, conversation bool
}

// rewindOptions are the mode choice's answers, in Claude Code's words and order.
var rewindOptions = []rewindOption{
	{"Restore code and conversation", true, true},
	{"Restore conversation", false, true},
	{"Restore code", true, false},
	{"Never mind", false, false},
}

// slashRewind is /rewind [N]: the turn list, or turn N's choice.
func (w *Workbench) slashRewind(args []string) bool {
	turn := 0
	if len(args) > 1 {
		w.notice("warning", "usage: /rewind [TURN] (the turns are listed without one)")
		return false
	}
	if len(args) == 1 {
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 1 {
			w.notice("warning", "/rewind takes a turn number (from 1): "+args[0])
			return false
		}
		turn = n
	}
	if why := w.OpenRewind(w.liveID, turn); why != "" {
		w.notice("warning", "rewind: "+why)
		return false
	}
	return true
}

// OpenRewind opens the rewind dialog of session sessionID at turn (from 1,
// as `pincer rewind --turn` counts: rewinding turn N returns to the state
// before it) — its mode choice — or, for turn <= 0, at the list of its turns.
// A session other than the shown tab's live one is resumed first, as r in the
// sessions browser does (it must have run in this directory), and the dialog
// opens once it is shown; the sessions browser and a read-only view close.
// It returns "" when the dialog opens (or will once the session is resumed),
// else why it cannot: no backend yet, a turn running, a rewind already under
// way, a backend that cannot rewind. Event loop only: the time-travel view
// turns a step into a rewind with it.
func (w *Workbench) OpenRewind(sessionID string, turn int) string {
	return w.openRewind(sessionID, rewindWant{number: max(turn, 0)})
}

// openRewind is OpenRewind at the turn want names.
func (w *Workbench) openRewind(sessionID string, turn rewindWant) string {
	rb, ok := w.be.(rewindBackend)
	switch {
	case w.be == nil:
		return "the store is still opening: try again in a moment"
	case !ok:
		return "this backend cannot rewind"
	case w.running:
		return "a turn is running: wait for it, or press Esc to cancel it"
	case w.rw.busy:
		return "a rewind is under way: answer its approval first"
	case sessionID == "":
		return "no session yet"
	}
	w.browser.Open = false
	if sessionID == w.liveID && !w.readOnly {
		w.openRewindAt(rb, sessionID, turn)
		return ""
	}
	be, old, root, t := w.be, w.liveID, w.workspaceRoot(), w.sessionTab
	w.goBackground(func() {
		all, err := be.Sessions(w.ctx, 0)
		if err != nil {
			w.Notify("error", "sessions: "+err.Error())
			return
		}
		i := slices.IndexFunc(all, func(s app.Session) bool { return s.ID == sessionID })
		switch {
		case i < 0:
			w.Notify("warning", "rewind: no session "+sessionID)
			return
		case root != "" && all[i].Cwd != root:
			w.Notify("warning", fmt.Sprintf("rewind: %s ran in %s: rewind it there (pincer rewind --session %s)", sessionID, all[i].Cwd, sessionID))
			return
		}
		w.resumeSession(t, be, old, sessionID)
		w.pump.post(func() {
			if w.sessionTab == t && w.liveID == sessionID && !w.running {
				w.openRewindAt(rb, sessionID, turn)
			}
		})
	})
	return ""
}

// openRewindAt opens the view on session id and reads its turns off the
// event loop; turn > 0 goes to its choice once they are in.
func (w *Workbench) openRewindAt(rb rewindBackend, id string, turn rewindWant) {
	w.rw = rewindView{open: true, loading: true, session: id, want: turn, busy: w.rw.busy, busyID: w.rw.busyID}
	w.goBackground(func() {
		turns, err := rb.RewindTurns(w.ctx, id)
		w.pump.post(func() {
			if !w.rw.open || w.rw.session != id {
				return
			}
			w.rw.loading, w.rw.turns, w.rw.sel = false, turns, max(len(turns)-1, 0)
			want := w.rw.want
			if want.id != "" {
				want.number = slices.IndexFunc(turns, func(t app.TurnSummary) bool { return t.ID == want.id }) + 1
			}
			switch {
			case err != nil:
				w.rw.err = err.Error()
			case want.id != "" && want.number == 0:
				w.rw.err = "the step's turn is not among this session's turns (" + want.id + ")"
			case want.number > len(turns):
				w.rw.err = fmt.Sprintf("this session has no turn %d (it has %d)", want.number, len(turns))
			case want.number > 0:
				w.rw.sel, w.rw.choose, w.rw.option = want.number-1, true, 0
			}
			w.rw.want = rewindWant{}
		})
	})
}

// changedFrom are the files the turns from index i on changed, sorted: what
// a code rewind to before turn i+1 restores.
func changedFrom(turns []app.TurnSummary, i int) []string {
	var out []string
	for _, t := range turns[min(i, len(turns)):] {
		out = append(out, t.Files...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// fileList is up to n names, "… and K more" after.
func fileList(files []string, n int) string {
	if len(files) <= n {
		return termtext.Line(strings.Join(files, ", "))
	}
	return termtext.Line(strings.Join(files[:n], ", ")) + fmt.Sprintf(" … and %d more", len(files)-n)
}

// rewindListRows lays out the turn list for width (pure, for the tests): one
// line per turn — number, start time, the first line of its prompt, the
// files it changed — the selected one marked, and under it the files the
// code rewind would restore.
func rewindListRows(v rewindView, width int) []mcpRow {
	switch {
	case v.err != "":
		return []mcpRow{{text: "rewind: " + termtext.Line(v.err), style: "error"}}
	case v.loading:
		return []mcpRow{{text: "reading the session's turns…", style: "muted"}}
	case len(v.turns) == 0:
		return []mcpRow{{text: "Nothing to rewind yet: this session has no turns.", style: "muted"}}
	}
	var rows []mcpRow
	for i, t := range v.turns {
		mark := "  "
		if i == v.sel {
			mark = "▸ "
		}
		files := "no files changed"
		if len(t.Files) > 0 {
			files = nFilesText(len(t.Files)) + ": " + fileList(t.Files, 3)
		}
		prompt := termtext.Line(t.Prompt)
		if prompt == "" {
			prompt = "(no prompt text)"
		}
		head := fmt.Sprintf("%s%3d  %s  ", mark, t.Number, t.Time.Local().Format("15:04"))
		promptW := max(10, min(50, width-textWidth(head)-textWidth(files)-2))
		prompt = cutCells(prompt, promptW)
		line := head + prompt + strings.Repeat(" ", max(0, promptW-textWidth(prompt))) + "  " + files
		style := "text"
		if len(t.Files) == 0 {
			style = "muted"
		}
		rows = append(rows, mcpRow{text: cutCells(line, width), style: style, bold: i == v.sel, sel: i == v.sel})
	}
	return rows
}

// rewindChoiceRows lays out the mode choice of the selected turn for width
// (pure, for the tests).
func rewindChoiceRows(v rewindView, width int) []mcpRow {
	t := v.turns[v.sel]
	var rows []mcpRow
	add := func(style, text string) {
		for _, line := range wrapCells(text, max(width-2, 10)) {
			rows = append(rows, mcpRow{text: line, style: style})
		}
	}
	add("text", fmt.Sprintf("Rewind to the point before turn %d (%s): %s", t.Number, t.Time.Local().Format("2006-01-02 15:04"), termtext.Line(t.Prompt)))
	files := changedFrom(v.turns, v.sel)
	if len(files) == 0 {
		add("muted", fmt.Sprintf("No file was changed from turn %d on: a code restore has nothing to do.", t.Number))
	} else {
		add("muted", fmt.Sprintf("From turn %d on, pincer changed %s: %s", t.Number, nFilesText(len(files)), fileList(files, 6)))
	}
	rows = append(rows, mcpRow{})
	for i, o := range rewindOptions {
		mark := "  "
		if i == v.option {
			mark = "▸ "
		}
		text := fmt.Sprintf("%s%d. %s", mark, i+1, o.label)
		style := "text"
		if why := rewindUnavailable(o, t.Number); why != "" {
			text += " — " + why
			style = "muted"
		} else if o.conversation && t.Number == 1 {
			text += " — the code only: " + keptBeforeTurnOne
		}
		rows = append(rows, mcpRow{text: cutCells(text, width), style: style, bold: i == v.option, sel: i == v.option})
	}
	rows = append(rows, mcpRow{})
	o := rewindOptions[v.option]
	if o.code {
		add("muted", "The code restore shows its diff in the approval queue first and changes nothing until you allow it; a file changed outside pincer since is kept unless you allow a second request for it.")
	}
	if o.conversation && t.Number > 1 {
		kept := "turn 1"
		if t.Number > 2 {
			kept = fmt.Sprintf("turns 1-%d", t.Number-1)
		}
		add("muted", fmt.Sprintf("The conversation continues in a new branch of this session holding %s; this session stays as it is (Ctrl+O lists both).", kept))
	}
	return rows
}

// rewindUnavailable says why option o cannot rewind to before turn, "" when
// it can.
func rewindUnavailable(o rewindOption, turn int) string {
	if o.conversation && !o.code && turn == 1 {
		return "nothing is before turn 1 (/clear starts a new session)"
	}
	return ""
}

// keptBeforeTurnOne is why a code-and-conversation rewind to before turn 1
// restores the code only (core branches no empty conversation), in its
// choice row and in the notice after it.
const keptBeforeTurnOne = "the conversation is kept, as nothing is before turn 1 (/clear starts a new one)"

// nFilesText is "1 file" or "N files".
func nFilesText(n int) string {
	if n == 1 {
		return "1 file"
	}
	return fmt.Sprintf("%d files", n)
}

// rewindKeyBar is the key bar while the view is open.
func rewindKeyBar(choosing bool) []string {
	if choosing {
		return []string{"j/k or 1-4 choose", "Enter rewinds", "Esc back to the turns"}
	}
	return []string{"j/k select a turn", "Enter choose what to restore", "Esc close"}
}

// drawRewindView draws the view over the panes (r: the main area).
func (w *Workbench) drawRewindView(screen tcell.Screen, r rect) {
	if r.W < 10 || r.H < 3 {
		return
	}
	text := w.theme.Style("text")
	for y := r.Y; y < r.Y+r.H; y++ {
		fillRow(screen, r.X, y, r.W, text)
	}
	head := "Rewind — restore the code and/or conversation to the point before a turn"
	rows := rewindListRows(w.rw, r.W-4)
	if w.rw.choose && w.rw.sel < len(w.rw.turns) {
		head = fmt.Sprintf("Rewind — to before turn %d: what to restore?", w.rw.turns[w.rw.sel].Number)
		rows = rewindChoiceRows(w.rw, r.W-4)
	}
	printAt(screen, r.X+2, r.Y, r.W-4, cutCells(head, r.W-4), w.theme.Style("accent").Bold(true))
	height := r.H - 2
	selAt := 0
	for i, row := range rows {
		if row.sel {
			selAt = i
		}
	}
	offset := 0
	if len(rows) > height {
		offset = max(0, min(selAt-height/2, len(rows)-height))
	}
	for i := offset; i < len(rows) && i-offset < height; i++ {
		st := w.theme.Style(rows[i].style)
		if rows[i].style == "" {
			st = text
		}
		if rows[i].bold {
			st = st.Bold(true)
		}
		printAt(screen, r.X+2, r.Y+2+i-offset, r.W-4, cutCells(rows[i].text, r.W-4), st)
	}
}
