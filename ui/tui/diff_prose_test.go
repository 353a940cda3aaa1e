package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"pincer/themes"
)

// TestDiffPaneProseWrapsAtWords: the diff pane's prose — the placeholder,
// why it asks, the approval keys — wraps at spaces with no continuation
// mark, at every width, so no word is split ("t↪imeline", "n d↪eny"); a
// command (code) still wraps by cell with contMark.
func TestDiffPaneProseWrapsAtWords(t *testing.T) {
	placeholder := diffContent{Key: "none", Text: diffPlaceholder, Prose: true}
	hint := approvalHint(DefaultKeyMap())
	cmd := "git commit -m " + strings.Repeat("averyveryverylongcommitmessagewithoutanyspaces", 2)
	header, _ := commandHeader(cmd, "Bash needs approval (default mode asks before a command runs)", hint)
	for _, tc := range []struct {
		name string
		c    diffContent
		code string // a code line that wraps with contMark ("" none)
	}{
		{"placeholder", placeholder, ""},
		{"approval", diffContent{Key: "a", Header: proseParts("Edit main.go\nWhy it asks: Edit needs approval\n" + hint), Text: "The call would change nothing.", Prose: true}, ""},
		{"command", diffContent{Key: "c", Header: header}, cmd},
	} {
		for _, width := range []int{24, 31, 40, 57, 80} {
			sim := tcell.NewSimulationScreen("UTF-8")
			if err := sim.Init(); err != nil {
				t.Fatal(err)
			}
			sim.SetSize(width, 30)
			p := newDiffPane(func() diffContent { return tc.c }, themes.Dark().Style)
			p.SetRect(0, 0, width, 30)
			p.Draw(sim)
			sim.Show()
			var rows []string
			marks := 0
			for _, l := range strings.Split(screenLines(sim), "\n")[1:] {
				r := []rune(l)
				if len(r) < 3 {
					continue
				}
				if string(r[1]) == contMark {
					marks++
				}
				rows = append(rows, " "+strings.TrimSpace(string(r[2:len(r)-1]))+" ")
			}
			screen := strings.Join(rows, "\n")
			prose := partsText(tc.c.Header) + " " + tc.c.Text
			for _, word := range strings.Fields(strings.ReplaceAll(prose, cmd, "")) {
				if textWidth(word) < width-3 && !strings.Contains(screen, " "+word+" ") &&
					!strings.Contains(screen, " "+word+"\n") {
					t.Errorf("%s at %d: %q is split:\n%s", tc.name, width, word, screenLines(sim))
				}
			}
			if want := tc.code != "" && textWidth(tc.code) > width-3; want != (marks > 0) {
				t.Errorf("%s at %d: %d continuation marks (code wraps with them, prose never):\n%s", tc.name, width, marks, screenLines(sim))
			}
		}
	}
}
