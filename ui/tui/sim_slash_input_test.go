package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/provider/providertest"
)

// TestSlashTabAmbiguous (Found 13): Tab on a prefix several commands share
// completes what they share, then lists them; the focus stays in the box.
func TestSlashTabAmbiguous(t *testing.T) {
	b, _, _, _ := attached(t, 160, 40, &providertest.Scripted{})
	b.typeText("/c")
	b.waitInput("/c")
	b.key(tcell.KeyTab, 0, tcell.ModNone)
	b.waitText("/clear  /cost  /config  /context  /compact")
	if f := b.focus(); f != paneInput {
		t.Fatalf("Tab moved the focus to pane %d", f)
	}
	b.typeText("o")
	b.key(tcell.KeyTab, 0, tcell.ModNone)
	b.waitInput("/co")
	b.typeText("s")
	b.key(tcell.KeyTab, 0, tcell.ModNone)
	b.waitInput("/cost")
}

// TestFailedSlashReplacedByNext (Found 13): a command that fails stays in the
// box to be fixed, but the next command typed replaces it instead of being
// appended to it.
func TestFailedSlashReplacedByNext(t *testing.T) {
	b, _, _, _ := attached(t, 160, 40, &providertest.Scripted{})
	b.typeText("/resume a b")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitText("usage: /resume [ID]")
	b.waitInput("/resume a b")
	b.typeText("/cost")
	b.waitInput("/cost")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitText("0 turns")
	b.waitInput("")
}

// TestUnknownSlashNotSent (Found 13): an unknown /name is answered here and
// never sent to the model; a line whose first word is a path is a prompt.
func TestUnknownSlashNotSent(t *testing.T) {
	prov := &providertest.Scripted{}
	b, _, _, _ := attached(t, 160, 40, prov)
	b.typeText("/foo")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitText("unknown command /foo — /help lists them")
	time.Sleep(5 * burstGap)
	if n := prov.Calls(); n != 0 {
		t.Fatalf("/foo reached the model (%d requests)", n)
	}
	b.typeText("/usr/bin/x is broken")
	b.waitInput("/usr/bin/x is broken")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitModel("the turn to end", func(m *Model) bool { return m.Status.Turn == TurnCompleted })
	if got := prov.Request(0).Messages[len(prov.Request(0).Messages)-1].Text(); !strings.Contains(got, "/usr/bin/x is broken") {
		t.Fatalf("the model got %q", got)
	}
}

// TestResumeAloneOpensTheBrowser (new user r24 #13): /resume without an ID
// opens the sessions browser to pick one, as Claude Code's picker.
func TestResumeAloneOpensTheBrowser(t *testing.T) {
	b, _, _, _ := attached(t, 160, 40, &providertest.Scripted{})
	b.typeText("/resume")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitText("Sessions (", "Ctrl+R resumes the selected one")
}
