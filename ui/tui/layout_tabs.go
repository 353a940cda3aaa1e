package tui

// tabbedLayout is computeLayout with the tabs' additions: the tab bar takes
// the top row (the panes move down one), and the split view halves the
// transcript's pane — the shown tab's on the left, the other tab's on the
// right (Split). A zoomed transcript splits too; another pane zoomed hides
// the split. Pure: sizes in, rectangles out.
func tabbedLayout(s layoutSpec) layout {
	bar := 0
	if s.TabBar && s.Height > 3 {
		bar = 1
	}
	inner := s
	inner.TabBar, inner.Split, inner.Height = false, false, max(s.Height-bar, 0)
	l := computeLayout(inner)
	if bar == 1 {
		l.Tabs = rect{0, 0, max(s.Width, 0), 1}
		shift := func(r *rect) { r.Y++ }
		for i := range l.Panes {
			shift(&l.Panes[i])
		}
		for _, r := range []*rect{&l.Notices, &l.Todos, &l.Banner, &l.Status, &l.Help, &l.Main} {
			shift(r)
		}
	}
	if s.Split && (s.Zoom < 0 || s.Zoom == paneTranscript) {
		t := l.Panes[paneTranscript]
		if t.W >= 20 {
			left := t.W / 2
			l.Panes[paneTranscript] = rect{t.X, t.Y, left, t.H}
			l.Split = rect{t.X + left, t.Y, t.W - left, t.H}
		}
	}
	return l
}
