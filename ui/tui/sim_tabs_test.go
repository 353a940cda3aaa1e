package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	msg "pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
)

// tabsProvider answers each session by its first prompt: a Write of
// WORD.txt (which asks for approval in the default mode), then, once the
// tool result is in, "WORD done". Two sessions' turns interleave freely.
func tabsProvider() *providertest.Scripted {
	return &providertest.Scripted{Respond: func(_ int, req provider.Request) providertest.Step {
		word, answered := "", false
		for _, m := range req.Messages {
			if m.Role == msg.RoleUser && word == "" {
				word = strings.Fields(m.Text() + " ?")[0]
			}
			if m.Role == msg.RoleTool {
				answered = true
			}
		}
		if answered {
			return providertest.Text(word + " done")
		}
		return providertest.ToolCalls(providertest.ToolCall("c-"+word, "Write", `{"file_path":"`+word+`.txt","content":"`+word+`\n"}`))
	}}
}

// alt presses Alt+r.
func (b *simBench) alt(r rune) { b.key(tcell.KeyRune, r, tcell.ModAlt) }

// TestTabsRunTurnsAtOnce: Alt+T opens a second tab on a new session; a turn
// runs in each at the same time (both wait for an approval); the tab bar
// and the status line count them across tabs; the one queue lists both
// requests, the other tab's labelled with it, and answers each to its own
// turn — the first tab's ends while the second is shown; Alt+P/Alt+N switch
// the panes between the two sessions, each with its own transcript; Alt+W
// closes a tab and the tab bar goes.
func TestTabsRunTurnsAtOnce(t *testing.T) {
	b, _, first, root := attached(t, 160, 40, tabsProvider())
	if s := b.text(); strings.Contains(s, "1 "+shortID(first)) {
		t.Fatalf("a tab bar with one tab:\n%s", s)
	}
	b.send("alpha please")
	b.waitText("awaiting approval", "Write alpha.txt")
	b.alt('t')
	b.waitText("tab 2: new session")
	second := b.shownSession()
	if second == first || second == "" {
		t.Fatalf("the new tab shows session %q (first %q)", second, first)
	}
	b.waitText("1 "+shortID(first)+" ● ?1", "2 "+shortID(second))
	if ids := b.w.SessionIDs(); len(ids) != 2 || ids[0] != first || ids[1] != second {
		t.Errorf("SessionIDs with two tabs = %v, want [%s %s]", ids, first, second)
	}
	b.send("beta please")
	s := b.waitText("2 "+shortID(second)+" ● ?1", "2 tabs: 2 running, 2 awaiting approval", "3 Approvals (2)", "tab 1 · Write alpha.txt")
	if os.Getenv("TABS_DUMP") != "" {
		t.Log("\n" + s)
	}
	if strings.Contains(s, "alpha please") {
		t.Errorf("tab 2 shows tab 1's transcript:\n%s", s)
	}
	b.key(tcell.KeyRune, '3', tcell.ModAlt)
	b.waitText("+beta") // tab 2's request took the focus: it is selected (NU1: y answers the shown tab's)
	b.key(tcell.KeyDown, 0, tcell.ModNone)
	b.waitText("+alpha") // tab 1's, its diff shown
	b.afterReading("y")  // answered from tab 2
	b.waitFor("tab 1's turn to end", func(s string) bool {
		return strings.Contains(s, " 1 "+shortID(first)+" │") && strings.Contains(s, "2 tabs: 1 running, 1 awaiting approval")
	})
	if _, err := os.Stat(filepath.Join(root, "beta.txt")); err == nil {
		t.Errorf("beta.txt written before its approval")
	}
	b.waitText("3 Approvals (1)", "+beta")
	b.afterReading("y")
	b.waitText("beta done", "2 tabs: 0 running")
	for _, f := range []string{"alpha.txt", "beta.txt"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	b.alt('p')
	s = b.waitText("alpha please", "alpha done")
	if strings.Contains(s, "beta please") || strings.Contains(s, "beta done") {
		t.Errorf("tab 1 shows tab 2's transcript:\n%s", s)
	}
	b.alt('n')
	b.waitText("beta done")
	b.alt('w')
	b.waitFor("the tab bar gone", func(s string) bool {
		return !strings.Contains(s, "2 "+shortID(second)) && strings.Contains(s, "alpha done")
	})
	if got := b.w.SessionID(); got != first {
		t.Errorf("SessionID after closing tab 2 = %q, want %q", got, first)
	}
	if ids := b.w.SessionIDs(); len(ids) != 1 || ids[0] != first {
		t.Errorf("SessionIDs after closing tab 2 = %v, want [%s]", ids, first)
	}
}

// shownSession is the shown tab's session, read on the event loop.
func (b *simBench) shownSession() string {
	var id string
	b.w.app.QueueUpdate(func() { id = b.w.sessionID })
	return id
}
