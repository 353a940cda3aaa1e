package e2e

import (
	"strings"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
)

// TestTUIApproveWithYNoFocusKey is issue 12, Found 1, end to end: the real
// binary in tmux at 80x24; a pending Edit takes the focus to the queue, the
// key bar leads with the approval keys, and `y` — with no focus key pressed
// first — approves it; the file changes and the focus is back in the input
// box (the next letters type there).
func TestTUIApproveWithYNoFocusKey(t *testing.T) {
	e := newEnv(t,
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c1", Name: "Read", Args: `{"file_path":"hello.txt"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c2", Name: "Edit", Args: `{"file_path":"hello.txt","old_string":"world","new_string":"pincer"}`}}},
		openaitest.Reply{Text: "edited"},
	)
	script := workbenchScript(t, e, "run")
	tm := newTmux(t, 80, 24, script)
	tm.waitText("1 Transcript", "· idle")
	tm.typeText("change world to pincer")
	tm.keys("Enter")
	sc := tm.waitText("3 Approvals (1)", "y once · s session · a always · n deny · N deny with reason")
	if got := e.read("hello.txt"); got != "hello world\n" {
		t.Fatalf("the file changed before approval: %q\n%s", got, sc)
	}
	time.Sleep(600 * time.Millisecond) // a person reads the request (an answer needs it on screen 400 ms)
	tm.keys("y")                       // no Alt+3, no Tab: approval first; given 300 ms later (no letter follows)
	deadline := time.Now().Add(10 * time.Second)
	for e.read("hello.txt") != "hello pincer\n" {
		if time.Now().After(deadline) {
			t.Fatalf("hello.txt = %q after y\n%s", e.read("hello.txt"), tm.screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
	tm.waitText("edited", "3 (0 · 1 done)") // 80 columns: the queue title keeps its decided count
	tm.typeText("zqxj")
	sc = tm.waitText("zqxj")
	if strings.Contains(sc, "approval waiting") {
		t.Errorf("the notice stayed after the answer:\n%s", sc)
	}
}
