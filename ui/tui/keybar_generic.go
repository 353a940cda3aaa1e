package tui

// genericBar is the key bar's generic items: the focused pane's bar bindings
// (KeyMap.barBindings) with the help key first, so that "F1 help" shows at any
// width, and the cancel key only while a turn runs (idle, or in a read-only
// view, there is no turn for Esc to cancel).
func (w *Workbench) genericBar() []string {
	running := w.running || w.model.Status.Turn == TurnRunning
	var help, rest []string
	for _, b := range w.keys.barBindings(w.genericContexts()) {
		switch {
		case b.Action == ActHelpAnywhere:
			help = append(help, b.barItem())
		case b.Action == ActCancel && !running:
		default:
			rest = append(rest, b.barItem())
		}
	}
	return append(help, rest...)
}
