package tui

import (
	"fmt"
	"testing"
)

// panes4 are the four panes of the main area.
var panes4 = []int{paneTranscript, paneTimeline, paneApprovals, paneDiff}

// checkTiles fails unless the four panes tile Main exactly: inside it, no
// overlap, every cell covered.
func checkTiles(t *testing.T, name string, l layout) {
	t.Helper()
	m := l.Main
	cover := make(map[[2]int]int)
	for _, p := range panes4 {
		r := l.Panes[p]
		if r.W < 0 || r.H < 0 || r.X < m.X || r.Y < m.Y || r.X+r.W > m.X+m.W || r.Y+r.H > m.Y+m.H {
			t.Errorf("%s: pane %d = %+v outside main %+v", name, p, r, m)
		}
		for y := r.Y; y < r.Y+r.H; y++ {
			for x := r.X; x < r.X+r.W; x++ {
				cover[[2]int{x, y}]++
			}
		}
	}
	for y := m.Y; y < m.Y+m.H; y++ {
		for x := m.X; x < m.X+m.W; x++ {
			if n := cover[[2]int{x, y}]; n != 1 {
				t.Fatalf("%s: cell %d,%d covered %d times", name, x, y, n)
			}
		}
	}
}

func TestComputeLayoutModes(t *testing.T) {
	cases := []struct {
		name          string
		spec          layoutSpec
		trans, tl, ap rect
		df            rect
		mainH         int
	}{
		{"stacked 160x50", layoutSpec{Width: 160, Height: 50, InputLines: 1, Zoom: -1, Mode: LayoutStacked},
			rect{0, 0, 96, 45}, rect{96, 0, 64, 13}, rect{96, 13, 64, 9}, rect{96, 22, 64, 23}, 45},
		{"auto 160x50 is stacked", layoutSpec{Width: 160, Height: 50, InputLines: 1, Zoom: -1, Mode: LayoutAuto},
			rect{0, 0, 96, 45}, rect{96, 0, 64, 13}, rect{96, 13, 64, 9}, rect{96, 22, 64, 23}, 45},
		{"auto 200x50 is four columns", layoutSpec{Width: 200, Height: 50, InputLines: 1, Zoom: -1, Mode: LayoutAuto},
			rect{0, 0, 80, 45}, rect{80, 0, 40, 45}, rect{120, 0, 30, 45}, rect{150, 0, 50, 45}, 45},
		{"auto with a lower threshold", layoutSpec{Width: 160, Height: 50, InputLines: 1, Zoom: -1, Mode: LayoutAuto, WideColumns: 150},
			rect{0, 0, 64, 45}, rect{64, 0, 32, 45}, rect{96, 0, 24, 45}, rect{120, 0, 40, 45}, 45},
		{"columns 120x40", layoutSpec{Width: 120, Height: 40, InputLines: 1, Zoom: -1, Mode: LayoutColumns},
			rect{0, 0, 48, 35}, rect{48, 0, 24, 35}, rect{72, 0, 18, 35}, rect{90, 0, 30, 35}, 35},
		{"grid 120x40", layoutSpec{Width: 120, Height: 40, InputLines: 1, Zoom: -1, Mode: LayoutGrid},
			rect{0, 0, 60, 20}, rect{60, 0, 60, 20}, rect{0, 20, 60, 15}, rect{60, 20, 60, 15}, 35},
		// 80x24: 19 rows above the input; the transcript keeps 12 (half of 24),
		// the other three share the 7 left side by side.
		{"stacked 80x24", layoutSpec{Width: 80, Height: 24, InputLines: 1, Zoom: -1, Mode: LayoutStacked},
			rect{0, 0, 80, 12}, rect{0, 12, 24, 7}, rect{24, 12, 20, 7}, rect{44, 12, 36, 7}, 19},
		{"stacked 80x24 with a notice", layoutSpec{Width: 80, Height: 24, InputLines: 1, NoticeLines: 2, Zoom: -1, Mode: LayoutStacked},
			rect{0, 0, 80, 12}, rect{0, 12, 24, 5}, rect{24, 12, 20, 5}, rect{44, 12, 36, 5}, 17},
		{"grid 80x24", layoutSpec{Width: 80, Height: 24, InputLines: 1, Zoom: -1, Mode: LayoutGrid},
			rect{0, 0, 40, 12}, rect{40, 0, 40, 12}, rect{0, 12, 40, 7}, rect{40, 12, 40, 7}, 19},
		// Taller and narrow: the three stack under the transcript.
		{"stacked 80x50", layoutSpec{Width: 80, Height: 50, InputLines: 1, Zoom: -1, Mode: LayoutStacked},
			rect{0, 0, 80, 25}, rect{0, 25, 80, 6}, rect{0, 31, 80, 5}, rect{0, 36, 80, 9}, 45},
	}
	for _, c := range cases {
		l := computeLayout(c.spec)
		got := []rect{l.Panes[paneTranscript], l.Panes[paneTimeline], l.Panes[paneApprovals], l.Panes[paneDiff]}
		want := []rect{c.trans, c.tl, c.ap, c.df}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: pane %d = %+v, want %+v", c.name, panes4[i], got[i], want[i])
			}
		}
		if l.Main.H != c.mainH {
			t.Errorf("%s: main has %d rows, want %d", c.name, l.Main.H, c.mainH)
		}
		checkTiles(t, c.name, l)
	}
}

func TestComputeLayoutBottom(t *testing.T) {
	l := computeLayout(layoutSpec{Width: 160, Height: 50, InputLines: 1, NoticeLines: 2, BannerLines: 1, Zoom: -1})
	if l.Notices != (rect{0, 42, 160, 2}) || l.Banner != (rect{0, 44, 160, 1}) || l.Panes[paneInput] != (rect{0, 45, 160, 3}) ||
		l.Status != (rect{0, 48, 160, 1}) || l.Help != (rect{0, 49, 160, 1}) {
		t.Errorf("bottom: notices %+v banner %+v input %+v status %+v help %+v", l.Notices, l.Banner, l.Panes[paneInput], l.Status, l.Help)
	}
	// The task list sits above the notices line, at most a fifth of the rows;
	// the transcript keeps its half.
	tl := computeLayout(layoutSpec{Width: 80, Height: 24, InputLines: 1, NoticeLines: 1, TodoLines: 9, Zoom: -1})
	if tl.Todos != (rect{0, 14, 80, 4}) || tl.Notices != (rect{0, 18, 80, 1}) || tl.Panes[paneTranscript].H != 12 {
		t.Errorf("todos %+v notices %+v transcript %+v", tl.Todos, tl.Notices, tl.Panes[paneTranscript])
	}
	checkTiles(t, "todos", tl)
	// The notices line never takes more than maxNoticeRows.
	if l := computeLayout(layoutSpec{Width: 80, Height: 24, NoticeLines: 9, Zoom: -1}); l.Notices.H != maxNoticeRows {
		t.Errorf("notices line of %d rows", l.Notices.H)
	}
	z := computeLayout(layoutSpec{Width: 160, Height: 50, InputLines: 3, Zoom: paneDiff, Mode: LayoutColumns})
	if z.Panes[paneDiff] != (rect{0, 0, 160, 43}) || z.Panes[paneTranscript].W != 0 || z.Panes[paneInput].H != 5 {
		t.Errorf("zoomed: %+v", z.Panes)
	}
}

func TestComputeLayoutAnySize(t *testing.T) {
	for _, mode := range layoutModes {
		for _, size := range [][2]int{{0, 0}, {1, 1}, {10, 3}, {99, 8}, {100, 6}, {80, 24}, {250, 70}, {30, 100}} {
			for _, notices := range []int{0, 3} {
				l := computeLayout(layoutSpec{Width: size[0], Height: size[1], InputLines: 20, NoticeLines: notices, Zoom: -1, Mode: mode})
				name := fmt.Sprintf("%s %dx%d", mode, size[0], size[1])
				checkTiles(t, name, l)
				if tr := l.Panes[paneTranscript]; tr.H < min((size[1]+1)/2, l.Main.H) {
					t.Errorf("%s: transcript has %d rows, want at least half", name, tr.H)
				}
				if y := l.Help.Y + l.Help.H; size[1] > 0 && y != size[1] {
					t.Errorf("%s: help bar ends at %d", name, y)
				}
			}
		}
	}
}

func TestLayoutCycleAndParse(t *testing.T) {
	m := LayoutAuto
	var seen []LayoutMode
	for range layoutModes {
		m = m.next()
		seen = append(seen, m)
	}
	if seen[0] != LayoutColumns || seen[1] != LayoutGrid || seen[2] != LayoutStacked || seen[3] != LayoutAuto {
		t.Errorf("cycle: %v", seen)
	}
	for _, s := range []string{"auto", "columns", "grid", "stacked"} {
		if got, err := ParseLayoutMode(s); err != nil || string(got) != s {
			t.Errorf("parse %q: %v %v", s, got, err)
		}
	}
	if _, err := ParseLayoutMode("tabs"); err == nil {
		t.Error("parse tabs: no error")
	}
}
