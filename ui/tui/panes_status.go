package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
)

// statusText is the status line fitted to width cells (fitStatus): model,
// permission mode, session, turn state, the approval notice, tokens, cost
// and context use; the lower-priority fields go first.
func (w *Workbench) statusText(now time.Time, width int) string {
	return fitStatus(w.statusFields(w.travelNow(now)), width)
}

// statusFields are the status line's fields in their order, each with the
// priority fitStatus drops by.
func (w *Workbench) statusFields(now time.Time) []statusField {
	s := w.model.Status
	parts := []statusField{{w.currentModel(), prioModel}, {w.mode, prioMode}}
	if w.storeState != "" {
		return append(parts, statusField{w.storeState, prioState})
	}
	if w.readOnly {
		parts = append(parts, w.readOnlyFields()...) // time travel's marker and cursor (timetravel_status.go)
	} else {
		parts = append(parts, statusField{shortID(w.sessionID), prioSession})
	}
	state := ""
	switch {
	case s.Turn == TurnRunning:
		state = "running"
		if !s.TurnStarted.IsZero() {
			d := now.Sub(s.TurnStarted)
			state += fmt.Sprintf(" %dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
		}
		if by := w.attachedState(); by != "" {
			state += " " + by
		}
		if n := len(w.model.Approvals); n > 0 {
			state += fmt.Sprintf(", %d awaiting approval", n)
		}
	case w.running:
		state = "starting…"
	case s.Turn == TurnIdle:
		state = "idle"
	case s.Turn == TurnCompleted:
		state = "done"
	case s.Turn == TurnFailed && s.TurnDetail != "":
		state = "failed: " + s.TurnDetail
	default:
		state = s.Turn
	}
	parts = append(parts, statusField{state, prioState})
	if tabs := w.tabsStatus(); tabs != "" {
		parts = append(parts, statusField{tabs, prioState})
	}
	if s.Turn == TurnRunning && w.pendingCount() > 0 {
		parts = append(parts, statusField{w.approvalStatus(), prioApproval})
	}
	if n := w.runningSubagents(); n > 0 {
		parts = append(parts, statusField{subagentCount(n), prioState})
	}
	if n := w.model.RunningShells(); n > 0 {
		parts = append(parts, statusField{shellCount(n), prioCtx})
	}
	if w.backfilling { // a long log's tail is shown: its totals are not the session's (resume_tail.go)
		return append(parts, statusField{"loading history…", prioTokens})
	}
	parts = append(parts, statusField{fmt.Sprintf("↑%s ↓%s tokens", humanTokens(s.InputTokens), humanTokens(s.OutputTokens)), prioTokens})
	switch cost := costText(s); cost {
	case "": // no model call yet: no cost to show
	case "?":
		parts = append(parts, statusField{"cost ?", prioCost})
	default:
		parts = append(parts, statusField{cost, prioCost})
	}
	if window := w.contextWindow(); window > 0 {
		parts = append(parts, statusField{fmt.Sprintf("ctx %d%%", s.LastContextTokens*100/window), prioCtx})
	} else {
		parts = append(parts, statusField{"ctx ?", prioCtx})
	}
	return parts
}

// humanTokens writes 950, 12.3k, 1.2M.
func humanTokens(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	}
	return fmt.Sprintf("%.1fM", float64(n)/1_000_000)
}

// drawStatus draws the status line: state only (statusText); messages go
// to the notices line.
func (w *Workbench) drawStatus(screen tcell.Screen, r rect) {
	if r.H <= 0 || r.W <= 0 {
		return
	}
	bar := w.theme.Style("selection")
	fillRow(screen, r.X, r.Y, r.W, bar)
	printAt(screen, r.X+1, r.Y, r.W-1, w.statusText(w.now(), r.W-1), bar)
}

// contexts returns the key contexts of the focused pane, narrowest first.
func (w *Workbench) contexts() []Context {
	switch w.focus {
	case paneInput:
		return []Context{CtxInput, CtxGlobal}
	case paneTranscript:
		return []Context{CtxTranscript, CtxList, CtxPanes, CtxGlobal}
	case paneApprovals:
		return []Context{CtxApprovals, CtxList, CtxPanes, CtxGlobal}
	case paneDiff:
		return []Context{CtxDiff, CtxList, CtxPanes, CtxGlobal}
	case paneTimeline:
		return []Context{CtxTimeline, CtxList, CtxPanes, CtxGlobal}
	}
	return []Context{CtxList, CtxPanes, CtxGlobal}
}

// drawHelpBar draws the key hints of the focused pane, or the slash
// commands matching what is typed.
func (w *Workbench) drawHelpBar(screen tcell.Screen, r rect) {
	if r.H <= 0 || r.W <= 0 {
		return
	}
	muted := w.theme.Style("muted")
	fillRow(screen, r.X, r.Y, r.W, w.theme.Style("text"))
	var items []string
	if w.mcp.open { // the view's keys, not the input box's under it
		printAt(screen, r.X+1, r.Y, r.W-1, fitKeyBar(nil, mcpKeyBar(w.mcp.confirm != ""), r.W-1), muted)
		return
	}
	if w.wt.open {
		printAt(screen, r.X+1, r.Y, r.W-1, fitKeyBar(nil, worktreesKeyBar(w.wt.confirm != ""), r.W-1), muted)
		return
	}
	if w.rw.open {
		printAt(screen, r.X+1, r.Y, r.W-1, fitKeyBar(nil, rewindKeyBar(w.rw.choose), r.W-1), muted)
		return
	}
	if w.ed.open {
		printAt(screen, r.X+1, r.Y, r.W-1, fitKeyBar(nil, editorKeyBar(), r.W-1), muted)
		return
	}
	if w.mem.open {
		printAt(screen, r.X+1, r.Y, r.W-1, fitKeyBar(nil, memoryKeyBar(w.mem.skills, w.mem.confirm), r.W-1), muted)
		return
	}
	if text := w.input.GetText(); w.focus == paneInput && strings.HasPrefix(text, "/") && !strings.ContainsAny(text, " \n") {
		items = slashHints(text, w.commands())
	}
	if w.focus == paneInput && len(items) == 0 {
		items = modelHints(w.input.GetText())
	}
	var first []string
	if len(items) == 0 {
		first, items = w.keyBarItems(w.genericBar())
		first = append(w.travelBarKeys(), first...)
	}
	printAt(screen, r.X+1, r.Y, r.W-1, fitKeyBar(first, items, r.W-1), muted)
}

// helpLines is the help screen's text: the slash commands (built-in, the
// catalog's, the plugins'), then every binding of the key map.
func (w *Workbench) helpLines() []string {
	if w.helpTopic == helpTopicAgents {
		return w.agentHelpLines()
	}
	if w.helpTopic == helpTopicBashes {
		return w.bashesHelpLines()
	}
	if w.helpTopic == helpTopicBashOutput {
		return w.bashOutputLines()
	}
	if w.helpTopic == helpTopicText {
		return w.topicText
	}
	// Commands first, as Claude Code's /help: a new user r22 found them
	// after some 150 lines of keys.
	lines := []string{"Help — Esc, ? or F1 closes this screen; j/k scroll", "", "Slash commands (type in the input box; Tab completes)"}
	for _, c := range slashCommands {
		lines = append(lines, fmt.Sprintf("  %-24s %s", c.name+" "+c.args, c.help))
	}
	lines = append(lines, catalogHelpLines(w.commands())...)
	lines = append(lines, w.pluginHelpLines()...)
	return append(append(lines, "", "Keys"), w.keys.HelpLines()...)
}

// drawHelpScreen draws the help screen over the panes: in columns when
// they fit, else one column scrolled by helpOffset; a line wider than the
// screen wraps (wrapHelpLines).
func (w *Workbench) drawHelpScreen(screen tcell.Screen, r rect) {
	if r.W < 10 || r.H < 3 {
		return
	}
	text, accent := w.theme.Style("text"), w.theme.Style("accent")
	for y := r.Y; y < r.Y+r.H; y++ {
		fillRow(screen, r.X, y, r.W, text)
	}
	lines := wrapHelpLines(w.helpLines(), r.W-3)
	colW := 0
	for _, l := range lines {
		colW = max(colW, textWidth(l))
	}
	colW += 4
	rows := r.H - 2
	cols := max(1, (r.W-2)/colW)
	if (len(lines)+rows-1)/rows > cols { // does not fit: one scrolled column
		w.helpOffset = max(0, min(w.helpOffset, len(lines)-rows))
		lines, cols = lines[w.helpOffset:], 1
	} else {
		w.helpOffset = 0
	}
	col, row := r.X+2, r.Y+1
	for _, l := range lines {
		if row >= r.Y+1+rows {
			if cols == 1 {
				break
			}
			row, col = r.Y+1, col+colW
		}
		st := text
		if l != "" && !strings.HasPrefix(l, " ") {
			st = accent.Bold(true)
		}
		printAt(screen, col, row, r.X+r.W-col-1, l, st)
		row++
	}
}
