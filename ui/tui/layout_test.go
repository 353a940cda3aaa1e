package tui

import "testing"

func TestComputeLayout(t *testing.T) {
	wide := computeLayout(160, 50, 1, -1)
	if wide.Panes[paneTranscript] != (rect{0, 0, 96, 45}) {
		t.Errorf("wide transcript = %+v", wide.Panes[paneTranscript])
	}
	tl, ap, df := wide.Panes[paneTimeline], wide.Panes[paneApprovals], wide.Panes[paneDiff]
	if tl.X != 96 || ap.X != 96 || df.X != 96 || tl.Y != 0 || ap.Y != tl.H || df.Y != tl.H+ap.H || df.Y+df.H != 45 {
		t.Errorf("right column: %+v %+v %+v", tl, ap, df)
	}
	if wide.Panes[paneInput] != (rect{0, 45, 160, 3}) || wide.Status.Y != 48 || wide.Help.Y != 49 {
		t.Errorf("bottom: %+v %+v %+v", wide.Panes[paneInput], wide.Status, wide.Help)
	}

	narrow := computeLayout(80, 24, 1, -1)
	y := 0
	for _, p := range []int{paneTranscript, paneTimeline, paneApprovals, paneDiff} {
		r := narrow.Panes[p]
		if r.X != 0 || r.W != 80 || r.Y != y || r.H < 3 {
			t.Errorf("narrow pane %d = %+v (want at y %d, full width, ≥ 3 rows)", p, r, y)
		}
		y += r.H
	}
	if y != 19 || narrow.Panes[paneInput].Y != 19 || narrow.Help.Y != 23 {
		t.Errorf("narrow stack ends at %d, input %+v", y, narrow.Panes[paneInput])
	}

	z := computeLayout(160, 50, 3, paneDiff)
	if z.Panes[paneDiff] != (rect{0, 0, 160, 43}) || z.Panes[paneTranscript].W != 0 || z.Panes[paneInput].H != 5 {
		t.Errorf("zoomed: %+v", z.Panes)
	}
	for _, size := range [][2]int{{0, 0}, {1, 1}, {10, 3}, {99, 8}, {100, 6}} {
		l := computeLayout(size[0], size[1], 20, -1)
		for i, r := range l.Panes {
			if r.W < 0 || r.H < 0 || r.Y+r.H > size[1] {
				t.Errorf("%v: pane %d = %+v", size, i, r)
			}
		}
	}
}
