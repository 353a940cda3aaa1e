package cells

import (
	"strings"

	"github.com/rivo/uniseg"
	"golang.org/x/text/unicode/norm"
)

// soundMark reports whether r is a halfwidth katakana voiced or semi-voiced
// sound mark (U+FF9E ﾞ, U+FF9F ﾟ). Unicode counts them as extending the
// grapheme cluster before them (Grapheme_Cluster_Break Extend, width 0), but
// terminals that measure code point by code point (wcwidth: tmux, VTE,
// xterm, Terminal.app) draw each as a character of its own, one cell wide.
// tcell gives "ｶﾞ" one cell while such a terminal advances two, so the rest
// of the row drifts a cell right and a wide rune further on is erased
// (issue 12, Found 11).
func soundMark(r rune) bool { return r == 0xFF9E || r == 0xFF9F }

// hasSoundMark reports whether s holds a soundMark.
func hasSoundMark(s string) bool { return strings.ContainsAny(s, "\uFF9E\uFF9F") }

// Next returns the first cell of s: its text (one grapheme cluster, as
// uniseg and tcell segment it), the rest of s, the cells it takes when drawn
// as Glyph(cell) (1 or 2), and the state for the next call (uniseg's: -1
// for the start of a text). Every measurement and every drawing of the
// workbench's own panes steps through text with Next and draws Glyph, so
// the widths a row is laid out with are the cells drawn.
func Next(s string, state int) (cell, rest string, width, newState int) {
	cell, rest, width, newState = uniseg.FirstGraphemeClusterInString(s, state)
	return cell, rest, ClusterWidth(cell, width), newState
}

// ClusterWidth returns the cells one grapheme cluster takes when drawn as
// Glyph(cluster), given the width uniseg reported for it (from
// FirstGraphemeClusterInString or StepString): that width, except for a
// cluster holding a halfwidth sound mark.
func ClusterWidth(cluster string, unisegWidth int) int {
	if len(cluster) > 2 && hasSoundMark(cluster) { // a sound mark is 3 bytes of UTF-8
		return uniseg.StringWidth(Glyph(cluster))
	}
	return unisegWidth
}

// Glyph is what is drawn for a cell Next returned: the cell itself without
// a trailing ZERO WIDTH JOINER (see FitCell), and a cluster holding a halfwidth sound mark is drawn in its compatibility
// composition (NFKC: "ｶﾞ" → "ガ", two cells, as wide as the terminal would
// make "ｶﾞ"; a mark on another base → the combining mark U+3099/U+309A),
// which every terminal measures as tcell does. A mark with no base is drawn
// on a space, one cell.
func Glyph(cell string) string {
	if len(cell) < 3 {
		return cell
	}
	if strings.HasSuffix(cell, "\u200D") && len(cell) > 3 { // joins nothing: see FitCell
		cell = strings.TrimRight(cell, "\u200D")
	}
	if !hasSoundMark(cell) {
		return cell
	}
	g := norm.NFKC.String(cell)
	if uniseg.StringWidth(g) == 0 {
		g = " " + g
	}
	return g
}

// zwj is ZERO WIDTH JOINER, which joins emoji into one (a family).
const zwj = '\u200D'

// FitCell returns the runes of a cell that a widget measuring with uniseg
// alone (tview's TextArea, TextView, InputField) has given one or two cells,
// made safe to send as one cell: without halfwidth sound marks (a terminal
// would draw them in a cell of their own, so the row drifts; the kana shows
// bare) and without a trailing ZERO WIDTH JOINER (a cluster ending in one
// joins nothing, but tmux keeps it pending and joins it to the next
// character it prints, wherever the cursor has moved: typing a family emoji
// left "\u200d║" at the end of the row). ok is false when nothing changed.
func FitCell(mainc rune, combc []rune) (rune, []rune, bool) {
	drop := len(combc) > 0 && combc[len(combc)-1] == zwj
	for _, r := range combc {
		drop = drop || soundMark(r)
	}
	if !drop {
		return mainc, combc, false
	}
	kept := make([]rune, 0, len(combc))
	for _, r := range combc {
		if !soundMark(r) {
			kept = append(kept, r)
		}
	}
	for len(kept) > 0 && kept[len(kept)-1] == zwj {
		kept = kept[:len(kept)-1]
	}
	return mainc, kept, true
}
