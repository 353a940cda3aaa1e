package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	msg "pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
)

// dangerProvider asks for Bash `touch DANGER.txt` in a session whose first
// prompt starts with "danger"; any other session gets "got <PROMPT>".
// A non-nil gate holds the danger request until it is closed.
func dangerProvider(gate chan struct{}) *providertest.Scripted {
	return &providertest.Scripted{Respond: func(_ int, req provider.Request) providertest.Step {
		first, answered := "", false
		for _, m := range req.Messages {
			if m.Role == msg.RoleUser && first == "" {
				first = m.Text()
			}
			if m.Role == msg.RoleTool {
				answered = true
			}
		}
		if !strings.HasPrefix(first, "danger") || answered {
			return providertest.Text("got <" + first + ">")
		}
		if gate != nil {
			<-gate
		}
		return providertest.ToolCalls(providertest.ToolCall("c-danger", "Bash", `{"command":"touch DANGER.txt"}`))
	}}
}

// TestNewTabTypingAnswersNothing (NU1, a first-time user's run): tab 1
// waits on `Bash: touch DANGER.txt`; Alt+T opens a tab and the person
// types "try" at a person's pace (150 ms a key, so y is not typed back by
// a further letter), then Enter. The new tab keeps the focus in its input
// box, every letter lands there, Enter sends "try" to tab 2's session, and
// tab 1's request is still waiting: DANGER.txt is not created. "y" alone is
// a prompt too: the keys of an empty box answer only the shown tab's
// requests.
func TestNewTabTypingAnswersNothing(t *testing.T) {
	for _, words := range []string{"try", "fix the tests", "y"} {
		t.Run(words, func(t *testing.T) {
			b, _, _, root := attached(t, 160, 40, dangerProvider(nil))
			b.send("danger please")
			b.waitText("awaiting approval", "touch DANGER.txt")
			time.Sleep(approvalGrace + 50*time.Millisecond) // tab 1's request long on screen
			b.alt('t')
			b.waitText("tab 2: new session")
			time.Sleep(approvalGrace + 50*time.Millisecond) // the person looks at the new tab first
			for _, r := range words {
				b.key(tcell.KeyRune, r, tcell.ModNone)
				time.Sleep(150 * time.Millisecond)
			}
			b.key(tcell.KeyEnter, 0, tcell.ModNone)
			b.waitText("got <" + words + ">")
			time.Sleep(commitDelay + 100*time.Millisecond)
			s := b.waitText("3 Approvals (1)", "tab 1 · Bash")
			if _, err := os.Stat(filepath.Join(root, "DANGER.txt")); err == nil {
				t.Fatalf("typing %q in a new tab approved tab 1's command:\n%s", words, s)
			}
		})
	}
}

// focused is the pane with the focus, read on the event loop.
func (b *simBench) focused() int {
	var f int
	b.w.app.QueueUpdate(func() { f = b.w.focus })
	return f
}

// TestHiddenTabsRequestKeepsFocus (NU1): a request that arrives in tab 1
// while tab 2 is shown does not take tab 2's focus, and y typed into tab
// 2's empty box is a prompt, not an answer; switched back to tab 1, its
// request (pending before the switch) leaves the focus in the box.
func TestHiddenTabsRequestKeepsFocus(t *testing.T) {
	gate := make(chan struct{})
	b, _, _, root := attached(t, 160, 40, dangerProvider(gate))
	b.send("danger please")
	b.waitText("danger please")
	b.alt('t')
	b.waitText("tab 2: new session")
	close(gate)
	b.waitText("tab 1 · Bash: touch DANGER.txt")
	time.Sleep(approvalGrace + 50*time.Millisecond)
	if f := b.focused(); f != paneInput {
		t.Fatalf("tab 1's request took tab 2's focus to pane %d:\n%s", f, b.text())
	}
	b.typeText("y")
	time.Sleep(150 * time.Millisecond) // a person's pace (a burst would be a paste)
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitText("got <y>")
	time.Sleep(commitDelay + 100*time.Millisecond)
	if _, err := os.Stat(filepath.Join(root, "DANGER.txt")); err == nil {
		t.Fatalf("y in tab 2 approved tab 1's command:\n%s", b.text())
	}
	b.alt('p')
	b.waitText("danger please", "? Bash: touch DANGER.txt")
	time.Sleep(approvalGrace + 50*time.Millisecond)
	if f := b.focused(); f != paneInput {
		t.Fatalf("switching to tab 1 moved the focus to pane %d:\n%s", f, b.text())
	}
}
