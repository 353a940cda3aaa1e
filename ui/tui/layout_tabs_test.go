package tui

import "testing"

// TestTabbedLayout: the tab bar takes the top row and everything else moves
// down one (the panes still tile Main); the split halves the transcript's
// pane between the two tabs; a zoomed other pane hides the split; a screen
// too small keeps no bar and no split.
func TestTabbedLayout(t *testing.T) {
	cases := []struct {
		name       string
		spec       layoutSpec
		bar, split bool
	}{
		{"bar only", layoutSpec{Width: 120, Height: 40, Zoom: -1, Mode: LayoutStacked, TabBar: true}, true, false},
		{"bar and split", layoutSpec{Width: 120, Height: 40, Zoom: -1, Mode: LayoutStacked, TabBar: true, Split: true}, true, true},
		{"split columns", layoutSpec{Width: 200, Height: 50, Zoom: -1, Mode: LayoutColumns, TabBar: true, Split: true}, true, true},
		{"split narrow", layoutSpec{Width: 80, Height: 24, Zoom: -1, Mode: LayoutStacked, TabBar: true, Split: true}, true, true},
		{"zoomed transcript splits", layoutSpec{Width: 120, Height: 40, Zoom: paneTranscript, Mode: LayoutStacked, TabBar: true, Split: true}, true, true},
		{"zoomed diff hides the split", layoutSpec{Width: 120, Height: 40, Zoom: paneDiff, Mode: LayoutStacked, TabBar: true, Split: true}, true, false},
		{"tiny: no bar, no split", layoutSpec{Width: 18, Height: 3, Zoom: -1, Mode: LayoutStacked, TabBar: true, Split: true}, false, false},
	}
	for _, c := range cases {
		l := computeLayout(c.spec)
		plain := c.spec
		plain.TabBar, plain.Split = false, false
		if (l.Tabs.H == 1) != c.bar {
			t.Errorf("%s: tab bar %+v, want bar %v", c.name, l.Tabs, c.bar)
		}
		if (l.Split.W > 0) != c.split {
			t.Errorf("%s: split %+v, want split %v", c.name, l.Split, c.split)
		}
		if c.bar {
			if l.Tabs != (rect{0, 0, c.spec.Width, 1}) || l.Main.Y != 1 || l.Help.Y != c.spec.Height-1 {
				t.Errorf("%s: bar %+v main %+v help %+v", c.name, l.Tabs, l.Main, l.Help)
			}
		}
		tr := l.Panes[paneTranscript]
		if c.split {
			if tr.X+tr.W != l.Split.X || tr.Y != l.Split.Y || tr.H != l.Split.H || l.Split.W-tr.W > 1 || tr.W-l.Split.W > 1 {
				t.Errorf("%s: transcript %+v and split %+v are not two halves", c.name, tr, l.Split)
			}
			tr.W += l.Split.W // the two halves are the transcript's pane
			l.Panes[paneTranscript] = tr
		}
		if c.spec.Zoom < 0 && c.bar {
			checkTiles(t, c.name, l)
		}
	}
}
