package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/provider/providertest"
	"pincer/ui/tui/browser"
)

// TestSessionsBrowserAt80Columns (issue 12 round 2, Found 6): at 80x24 the
// browser cuts nothing of its legend, its key hints or its delete prompt:
// each piece of them is whole on some line of the screen (they wrap).
func TestSessionsBrowserAt80Columns(t *testing.T) {
	b, ag, _, root := attached(t, 80, 24, &providertest.Scripted{})
	seedSession(t, ag, "20250101-000000-parser01", root, "fix the parser", time.Hour)
	b.key(tcell.KeyCtrlO, 0, tcell.ModCtrl)
	s := b.waitText("Sessions (", "fix the parser")
	whole := func(s, what string, pieces []string) {
		t.Helper()
		for _, p := range pieces {
			if y, _ := rowOf(s, p); y < 0 {
				t.Errorf("%s: %q is cut or missing at 80 columns:\n%s", what, p, s)
			}
		}
	}
	whole(s, "legend", strings.Split(browser.Legend, "  "))
	whole(s, "key hints", append(DefaultKeyMap().HelpBar([]Context{CtxSessions}), "Esc close"))

	b.key(tcell.KeyDown, 0, tcell.ModNone) // from the live session to the parser's
	b.key(tcell.KeyCtrlD, 0, tcell.ModCtrl)
	s = b.waitText("Delete session")
	whole(s, "delete prompt", []string{"Delete session “fix the parser”", "and everything stored with it?", "y deletes,", "any other key keeps it"})
	whole(s, "legend with the prompt", strings.Split(browser.Legend, "  "))
}
