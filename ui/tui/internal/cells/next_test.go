package cells

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// TestNextCells: the cells a string takes and what is drawn in them, so that
// a terminal measuring code point by code point (tmux, VTE, xterm) puts
// every cell where tcell does: a grapheme cluster is one cell (two, wide),
// and a cluster holding a halfwidth sound mark is drawn composed ("ｶﾞ" →
// "ガ", two cells, as the terminal advances for "ｶﾞ").
func TestNextCells(t *testing.T) {
	cases := []struct {
		in     string
		glyphs []string
		width  int
	}{
		{"abc", []string{"a", "b", "c"}, 3},
		{"ｶﾞX 再", []string{"ガ", "X", " ", "再"}, 6},
		{"ﾊﾟﾝ", []string{"パ", "ﾝ"}, 3},
		{"Xﾞ", []string{"X\u3099"}, 1},              // a mark on a base that has no voiced form
		{"ﾞ", []string{" \u3099"}, 1},               // a mark alone: on a space
		{"e\u0301x", []string{"e\u0301", "x"}, 2},   // a nonspacing mark stays in its cell
		{"कि", []string{"कि"}, 2},                   // a spacing mark: uniseg already counts its cell
		{"a👨‍👩‍👧b", []string{"a", "👨‍👩‍👧", "b"}, 4}, // a ZWJ sequence is one wide cell
		{"👍🏽!", []string{"👍🏽", "!"}, 3},             // a skin-tone modifier joins its emoji
		{"🇯🇵", []string{"🇯🇵"}, 2},                   // a flag
		{"\u1112\u1161\u11ab", []string{"\u1112\u1161\u11ab"}, 2},
	}
	for _, c := range cases {
		var got []string
		rest, state, sum := c.in, -1, 0
		for rest != "" {
			var cell string
			var w int
			cell, rest, w, state = Next(rest, state)
			if w < 1 {
				t.Errorf("%q: cell %q has width %d", c.in, cell, w)
			}
			sum += w
			got = append(got, Glyph(cell))
		}
		if strings.Join(got, "|") != strings.Join(c.glyphs, "|") {
			t.Errorf("%q: glyphs %q, want %q", c.in, got, c.glyphs)
		}
		if w := Width(c.in); w != c.width || sum != c.width {
			t.Errorf("Width(%q) = %d (cells sum %d), want %d", c.in, w, sum, c.width)
		}
	}
}

// TestPrintComposesSoundMarks: Print draws "ｶﾞ" as "ガ" over two cells, so
// what follows it sits where the terminal puts it and the wide rune after
// it survives.
func TestPrintComposesSoundMarks(t *testing.T) {
	sim := tcell.NewSimulationScreen("UTF-8")
	if err := sim.Init(); err != nil {
		t.Fatal(err)
	}
	sim.SetSize(20, 1)
	used := Print(sim, 0, 0, 20, "ｶﾞX 再|", tcell.StyleDefault)
	sim.Show()
	cs, _, _ := sim.GetContents()
	var row []string
	for _, c := range cs[:used] {
		row = append(row, string(c.Runes))
	}
	want := []string{"ガ", "", "X", " ", "再", "", "|"} // a wide rune's continuation cell reads empty
	if used != 7 || strings.Join(row, "|") != strings.Join(want, "|") {
		t.Fatalf("used %d, cells %q, want 7 and %q", used, row, want)
	}
}

// TestFitCell: for a widget that gave "ｶﾞ" one cell, the mark goes; a
// trailing joiner goes (tmux would join it to whatever it prints next).
func TestFitCell(t *testing.T) {
	cases := []struct {
		main  rune
		comb  []rune
		want  string
		drops bool
	}{
		{'ｶ', []rune{'ﾞ'}, "ｶ", true},
		{'e', []rune{'\u0301'}, "e\u0301", false},
		{'ﾊ', []rune{'\u0301', 'ﾟ'}, "ﾊ\u0301", true},
		{'a', nil, "a", false},
		{'👨', []rune{'\u200d'}, "👨", true},
		{'👨', []rune{'\u200d', '👩', '\u200d', '👧'}, "👨\u200d👩\u200d👧", false},
	}
	for _, c := range cases {
		m, rest, ok := FitCell(c.main, c.comb)
		if got := string(append([]rune{m}, rest...)); got != c.want || ok != c.drops {
			t.Errorf("FitCell(%q, %q) = %q, %v; want %q, %v", c.main, c.comb, got, ok, c.want, c.drops)
		}
	}
}
