package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
)

// statusText is the status line: model, permission mode, session, turn
// state, tokens, cost and context use.
func (w *Workbench) statusText(now time.Time) string {
	s := w.model.Status
	parts := []string{w.currentModel(), w.mode}
	if w.storeState != "" {
		return strings.Join(append(parts, w.storeState), " · ")
	}
	if w.readOnly {
		parts = append(parts, "read-only "+shortID(w.sessionID)+" (Esc returns)")
	} else {
		parts = append(parts, shortID(w.sessionID))
	}
	switch {
	case s.Turn == TurnRunning:
		state := "running"
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
		parts = append(parts, state)
		if w.pendingCount() > 0 {
			parts = append(parts, w.approvalStatus())
		}
	case w.running:
		parts = append(parts, "starting…")
	case s.Turn == TurnIdle:
		parts = append(parts, "idle")
	case s.Turn == TurnCompleted:
		parts = append(parts, "done")
	case s.Turn == TurnFailed && s.TurnDetail != "":
		parts = append(parts, "failed: "+s.TurnDetail)
	default:
		parts = append(parts, s.Turn)
	}
	parts = append(parts, fmt.Sprintf("↑%s ↓%s tokens", humanTokens(s.InputTokens), humanTokens(s.OutputTokens)))
	if s.CostUnknown {
		parts = append(parts, "cost ?")
	} else {
		parts = append(parts, fmt.Sprintf("$%.4f", s.CostUSD))
	}
	if window := w.contextWindow(); window > 0 {
		parts = append(parts, fmt.Sprintf("ctx %d%%", s.LastContextTokens*100/window))
	} else {
		parts = append(parts, "ctx ?")
	}
	return strings.Join(parts, " · ")
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
	printAt(screen, r.X+1, r.Y, r.W-1, w.statusText(w.now()), bar)
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
	if text := w.input.GetText(); w.focus == paneInput && strings.HasPrefix(text, "/") && !strings.ContainsAny(text, " \n") {
		for _, c := range slashCommands {
			if strings.HasPrefix(c.name, text) {
				items = append(items, c.name+" "+c.help)
			}
		}
	}
	if w.focus == paneInput && len(items) == 0 {
		items = modelHints(w.input.GetText())
	}
	var first []string
	if len(items) == 0 {
		first, items = w.keyBarItems(w.keys.HelpBar(w.genericContexts()))
	}
	printAt(screen, r.X+1, r.Y, r.W-1, fitKeyBar(first, items, r.W-1), muted)
}

// helpLines is the help screen's text: every binding of the key map,
// then the slash commands.
func (w *Workbench) helpLines() []string {
	lines := append([]string{"Keys — Esc, ? or F1 closes this screen; j/k scroll", ""}, w.keys.HelpLines()...)
	lines = append(lines, "Slash commands (type in the input box; Tab completes)")
	for _, c := range slashCommands {
		lines = append(lines, fmt.Sprintf("  %-24s %s", c.name+" "+c.args, c.help))
	}
	return lines
}

// drawHelpScreen draws the help screen over the panes: in columns when
// they fit, else one column scrolled by helpOffset.
func (w *Workbench) drawHelpScreen(screen tcell.Screen, r rect) {
	if r.W < 10 || r.H < 3 {
		return
	}
	text, accent := w.theme.Style("text"), w.theme.Style("accent")
	for y := r.Y; y < r.Y+r.H; y++ {
		fillRow(screen, r.X, y, r.W, text)
	}
	lines := w.helpLines()
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
