package tui

import "fmt"

// LayoutMode names how the four panes share the screen. The person cycles
// it with the layout.cycle key (F4 by default) and the choice is kept across
// runs (Options.LayoutFile).
type LayoutMode string

// The layouts, in the order the cycle key visits them.
const (
	// LayoutAuto is four columns when the terminal is at least
	// Options.WideColumns wide, else stacked.
	LayoutAuto LayoutMode = "auto"
	// LayoutColumns is transcript · timeline · approvals · diff side by side.
	LayoutColumns LayoutMode = "columns"
	// LayoutGrid is a 2×2 grid: transcript and timeline above, approvals and
	// diff below.
	LayoutGrid LayoutMode = "grid"
	// LayoutStacked is the transcript on the left and the other three stacked
	// on the right (from narrowWidth columns up); below that the transcript on
	// top and the other three under it.
	LayoutStacked LayoutMode = "stacked"
)

// layoutModes is the cycle order.
var layoutModes = []LayoutMode{LayoutAuto, LayoutColumns, LayoutGrid, LayoutStacked}

// DefaultWideColumns is the terminal width from which LayoutAuto shows four
// columns.
const DefaultWideColumns = 200

// ParseLayoutMode reads a layout name (auto, columns, grid, stacked); any
// other text is an error naming the valid ones.
func ParseLayoutMode(s string) (LayoutMode, error) {
	for _, m := range layoutModes {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown layout %q (want auto, columns, grid or stacked)", s)
}

// next is the layout after m in the cycle.
func (m LayoutMode) next() LayoutMode {
	for i, x := range layoutModes {
		if x == m {
			return layoutModes[(i+1)%len(layoutModes)]
		}
	}
	return LayoutAuto
}

// resolve is the layout m draws at a width: auto becomes columns or stacked.
func (m LayoutMode) resolve(width, wide int) LayoutMode {
	if wide <= 0 {
		wide = DefaultWideColumns
	}
	switch m {
	case LayoutColumns, LayoutGrid, LayoutStacked:
		return m
	}
	if width >= wide {
		return LayoutColumns
	}
	return LayoutStacked
}

// layoutSpec is everything the layout depends on: sizes in, no state.
type layoutSpec struct {
	Width, Height int
	InputLines    int // lines of text in the input box (it grows to a cap)
	NoticeLines   int // rows the notices line needs at this width (0: no notice)
	TodoLines     int // rows of the live task list (0: none shown)
	BannerLines   int // rows of the banner above the input box (0: none)
	Zoom          int // a pane index, or -1
	Mode          LayoutMode
	WideColumns   int  // LayoutAuto's threshold; 0: DefaultWideColumns
	TabBar        bool // a row for the tab bar above the panes (more than one tab open)
	Split         bool // the transcript's pane shows two tabs side by side (layout_tabs.go)
}

// maxNoticeRows caps the notices line; a longer notice ends with a mark
// that the notices key shows it whole.
const maxNoticeRows = 3

// computeLayout arranges the screen for s. From the bottom: the help bar,
// the status line, the input box (its text lines, capped), the banner, the
// notices line and the live task list (at most a fifth of the rows, 3 at
// least); the four panes share what is left (Main) as s.Mode
// says. A zoomed pane takes all of Main. Whatever the layout, the
// transcript keeps at least half the terminal's rows while Main has them
// (at 80x24: 12). Every size is clamped at zero, so any size is safe.
func computeLayout(s layoutSpec) layout {
	if s.TabBar || s.Split {
		return tabbedLayout(s)
	}
	var l layout
	width, height := max(s.Width, 0), max(s.Height, 0)
	maxInput := 6
	if width < narrowWidth {
		maxInput = 3
	}
	inputH := min(max(s.InputLines, 1), maxInput) + 2
	bottom := min(height, 2)
	inputH = min(inputH, height-bottom)
	noticeH := min(max(s.NoticeLines, 0), maxNoticeRows, max(height-bottom-inputH, 0))
	bannerH := min(max(s.BannerLines, 0), max(height-bottom-inputH-noticeH, 0))
	todoH := min(max(s.TodoLines, 0), max(3, height/5), max(height-bottom-inputH-noticeH-bannerH, 0))
	mainH := height - bottom - inputH - noticeH - bannerH - todoH
	y := mainH
	l.Main = rect{0, 0, width, mainH}
	l.Todos = rect{0, y, width, todoH}
	y += todoH
	l.Notices = rect{0, y, width, noticeH}
	y += noticeH
	l.Banner = rect{0, y, width, bannerH}
	y += bannerH
	l.Panes[paneInput] = rect{0, y, width, inputH}
	y += inputH
	l.Status = rect{0, y, width, min(1, bottom)}
	l.Help = rect{0, y + 1, width, max(bottom-1, 0)}
	if s.Zoom >= 0 && s.Zoom < paneInput {
		l.Panes[s.Zoom] = l.Main
		return l
	}
	half := min((height+1)/2, mainH) // the transcript's floor
	switch s.Mode.resolve(width, s.WideColumns) {
	case LayoutColumns:
		columns(&l, []int{paneTranscript, paneTimeline, paneApprovals, paneDiff}, []int{40, 20, 15, 25}, 0, 0, width, mainH)
	case LayoutGrid:
		topH := max(mainH*55/100, half)
		leftW := width / 2
		l.Panes[paneTranscript] = rect{0, 0, leftW, topH}
		l.Panes[paneTimeline] = rect{leftW, 0, width - leftW, topH}
		l.Panes[paneApprovals] = rect{0, topH, leftW, mainH - topH}
		l.Panes[paneDiff] = rect{leftW, topH, width - leftW, mainH - topH}
	default: // stacked
		if width >= narrowWidth {
			leftW := width * 3 / 5
			l.Panes[paneTranscript] = rect{0, 0, leftW, mainH}
			stack(&l, []int{paneTimeline, paneApprovals, paneDiff}, []int{30, 20, 50}, leftW, width-leftW, mainH)
			return l
		}
		topH := max(mainH*40/100, half)
		rest := mainH - topH
		l.Panes[paneTranscript] = rect{0, 0, width, topH}
		if rest >= 9 { // room for three bordered panes one above the other
			stack(&l, []int{paneTimeline, paneApprovals, paneDiff}, []int{30, 25, 45}, 0, width, rest)
			for _, p := range []int{paneTimeline, paneApprovals, paneDiff} {
				l.Panes[p].Y += topH
			}
			return l
		}
		columns(&l, []int{paneTimeline, paneApprovals, paneDiff}, []int{30, 25, 45}, 0, topH, width, rest)
	}
	return l
}

// columns places panes side by side in a row at (x, y), sharing width by
// percentages; the last takes what is left.
func columns(l *layout, panes, percent []int, x, y, width, height int) {
	cx := x
	for i, p := range panes {
		w := width * percent[i] / 100
		if i == len(panes)-1 {
			w = max(x+width-cx, 0)
		}
		l.Panes[p] = rect{cx, y, w, height}
		cx += w
	}
}
