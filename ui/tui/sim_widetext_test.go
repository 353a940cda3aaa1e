package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"pincer/core/event"
	"pincer/core/provider/providertest"
)

// wideText is the text of Found 11: a halfwidth kana with its voiced sound
// mark (two code points a terminal draws in two cells, one cluster to
// Unicode), a wide ideograph after it, and a family emoji (a ZWJ sequence).
const wideText = "ｶﾞX 再 a👨‍👩‍👧b end|"

// driftingCells returns the cells of the screen that a terminal measuring
// code point by code point (tmux, VTE, xterm) would draw wider than tcell
// counts them, so that the rest of their row drifts: a halfwidth sound mark
// sharing a cell with its base; and cells ending in a ZERO WIDTH JOINER,
// which tmux joins to the next character it prints, wherever that is.
func (b *simBench) driftingCells() []string {
	var bad []string
	b.onLoop(func() {
		cells, _, _ := b.sim.GetContents()
		for _, c := range cells {
			if len(c.Runes) > 1 && (strings.ContainsAny(string(c.Runes[1:]), "\uFF9E\uFF9F") || c.Runes[len(c.Runes)-1] == '\u200d') {
				bad = append(bad, string(c.Runes))
			}
		}
	})
	return bad
}

// borderAt reports whether the cell at (x, y) holds r.
func (b *simBench) cellIs(x, y int, r rune) bool {
	ok := false
	b.onLoop(func() {
		cells, width, _ := b.sim.GetContents()
		ok = len(cells[y*width+x].Runes) > 0 && cells[y*width+x].Runes[0] == r
	})
	return ok
}

// TestWideTextInTheTranscript (Found 11): the transcript draws "ｶﾞ" composed
// ("ガ", the two cells the terminal gives "ｶﾞ"), so the ideograph after it
// is not erased, the family emoji stays, and the right border keeps its
// column.
func TestWideTextInTheTranscript(t *testing.T) {
	b, ag, sid, _ := attached(t, 100, 30, &providertest.Scripted{})
	if _, err := ag.Log().Emit(t.Context(), event.MessageDelta, sid, "t", event.MessageDeltaData{MessageID: "m", Delta: wideText, Kind: "text"}); err != nil {
		t.Fatal(err)
	}
	s := b.waitText("end|")
	if !strings.Contains(s, "ガX 再 a👨‍👩‍👧b end|") {
		t.Fatalf("the transcript does not show the text whole:\n%s", s)
	}
	if bad := b.driftingCells(); len(bad) > 0 {
		t.Errorf("cells a terminal draws wider than tcell counts: %q", bad)
	}
	y, _ := rowOf(s, "end|")
	var border int
	b.onLoop(func() { x, _, w, _ := b.w.view.GetRect(); border = x + w - 1 })
	if !b.cellIs(border, y, '│') {
		t.Errorf("row %d has lost its right border at column %d:\n%s", y, border, s)
	}
}

// TestWideTextInTheInputBox (Found 11): the input box (tview's TextArea,
// which gives "ｶﾞ" one cell) draws the kana without its mark, so the terminal
// advances the one cell counted: the ideograph and the family emoji after it
// stay, and so does the box's right border.
func TestWideTextInTheInputBox(t *testing.T) {
	b, _, _, _ := attached(t, 100, 30, &providertest.Scripted{})
	half := strings.Index(wideText, "\u200d") + len("\u200d")
	b.typeText(wideText[:half] + "|") // as typed: the emoji's joiner first, then the next one
	b.waitText("a👨|")
	if bad := b.driftingCells(); len(bad) > 0 {
		t.Errorf("while typing the family emoji: cells a terminal draws wider than tcell counts: %q", bad)
	}
	b.key(tcell.KeyBackspace2, 0, tcell.ModNone)
	b.typeText(wideText[half:])
	s := b.waitText("end|")
	if !strings.Contains(s, "ｶX 再 a👨‍👩‍👧b end|") {
		t.Fatalf("the input box does not show the text:\n%s", s)
	}
	if bad := b.driftingCells(); len(bad) > 0 {
		t.Errorf("cells a terminal draws wider than tcell counts: %q", bad)
	}
	y, _ := rowOf(s, "end|")
	var border int
	b.onLoop(func() { x, _, w, _ := b.w.input.GetRect(); border = x + w - 1 })
	if !b.cellIs(border, y, '║') && !b.cellIs(border, y, '│') {
		t.Errorf("row %d has lost its right border at column %d:\n%s", y, border, s)
	}
}
