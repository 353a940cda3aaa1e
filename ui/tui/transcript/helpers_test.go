package transcript

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
	"github.com/rivo/uniseg"

	"pincer/themes"
)

// newScreen returns a w×h simulation screen.
func newScreen(t testing.TB, w, h int) tcell.SimulationScreen {
	t.Helper()
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	s.SetSize(w, h)
	return s
}

// drawView draws v full-screen on s and shows it.
func drawView(v *View, s tcell.SimulationScreen) {
	w, h := s.Size()
	v.SetRect(0, 0, w, h)
	s.Clear()
	v.Draw(s)
	s.Show()
}

// rows returns the screen's text, one string per row. The continuation
// cell a wide rune covers is skipped (the simulation keeps whatever it held
// before, which a terminal would not show); trailing spaces are trimmed.
func rows(s tcell.SimulationScreen) []string {
	cells, w, h := s.GetContents()
	out := make([]string, h)
	for y := 0; y < h; y++ {
		var b strings.Builder
		for x := 0; x < w; x++ {
			c := string(cells[y*w+x].Runes)
			b.WriteString(c)
			if uniseg.StringWidth(c) == 2 {
				x++
			}
		}
		out[y] = strings.TrimRight(b.String(), " ")
	}
	return out
}

// screenText joins rows with newlines.
func screenText(s tcell.SimulationScreen) string { return strings.Join(rows(s), "\n") }

// findRow returns the first row containing sub, or -1.
func findRow(s tcell.SimulationScreen, sub string) int {
	for y, r := range rows(s) {
		if strings.Contains(r, sub) {
			return y
		}
	}
	return -1
}

// cellAt returns the text and style of the cell at (x, y).
func cellAt(s tcell.SimulationScreen, x, y int) (string, tcell.Style) {
	cells, w, _ := s.GetContents()
	c := cells[y*w+x]
	return string(c.Runes), c.Style
}

func fg(st tcell.Style) tcell.Color {
	f, _, _ := st.Decompose()
	return f
}

func dark() *themes.Theme { return themes.Dark() }

type tviewPrimitive = tview.Primitive

// keySender returns a function that sends a key to v's input handler.
func keySender(v *View) func(k tcell.Key, r rune) {
	h := v.InputHandler()
	return func(k tcell.Key, r rune) {
		h(tcell.NewEventKey(k, r, tcell.ModNone), func(tview.Primitive) {})
	}
}
