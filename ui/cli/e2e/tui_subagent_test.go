package e2e

import (
	"strings"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
)

// TestTUISubagentApprovalInQueue: the real binary in tmux; the scripted
// parent starts a general-purpose subagent whose Bash call asks. The
// request is in the workbench's queue labelled with the subagent, y answers
// it (a keypress after the grace), the child's command runs, and the
// parent's next request carries the child's final text as the Agent call's
// result (not the child's steps); `pincer sessions` lists the child under
// the parent.
func TestTUISubagentApprovalInQueue(t *testing.T) {
	e := newEnv(t,
		openaitest.Reply{When: "PARENT-GO", ToolCalls: []openaitest.Call{agentCall("a1", "general-purpose", "make the marker", "CHILDTASK make the marker", "")}},
		openaitest.Reply{When: "CHILDTASK", ToolCalls: []openaitest.Call{{ID: "b1", Name: "Bash", Args: `{"command":"touch child-marker"}`}}},
		openaitest.Reply{When: "CHILDTASK", Text: "CHILD-FINAL-TEXT marker made"},
		openaitest.Reply{When: "PARENT-GO", Text: "parent saw the subagent's answer"},
	)
	script := workbenchScript(t, e, "run")
	tm := newTmux(t, 160, 40, script)
	tm.waitText("1 Transcript", "· idle")
	tm.typeText("PARENT-GO please")
	tm.keys("Enter")
	sc := tm.waitText("[general-purpose] Bash: touch child-marker", "3 Approvals (1)")
	if !strings.Contains(sc, "? ▸ [general-purpose] make the m") { // the row's middle is elided to fit
		t.Errorf("the Agent call's row does not name the subagent:\n%s", sc)
	}
	time.Sleep(700 * time.Millisecond) // a person reads the request (an answer needs it on screen 400 ms)
	tm.keys("y")
	tm.waitText("parent saw the subagent's answer")
	if got := e.read("child-marker"); got != "" {
		t.Fatalf("child-marker = %q", got)
	}
	parent := requestsWith(e, "PARENT-GO")
	if len(parent) != 2 {
		t.Fatalf("the parent made %d model calls, want 2", len(parent))
	}
	res := toolResultsOf(t, parent[1])["a1"]
	if !strings.Contains(res, "CHILD-FINAL-TEXT marker made") || strings.Contains(res, "touch child-marker") {
		t.Errorf("the parent's Agent result = %q, want the child's final text only", res)
	}
	tm.waitFor("the row to say done", func(sc string) bool {
		for _, l := range strings.Split(sc, "\n") {
			if strings.Contains(l, "✓ ▸ [general-purpose] make th") && strings.Contains(l, "· done · 2 model c") { // cut to the pane's width: "2 model c… 1.3s"
				return true
			}
		}
		return false
	})
	out, stderr, code := e.run("sessions", "list")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) < 3 || !strings.HasPrefix(lines[2], "└ ") || !strings.Contains(lines[2], "[general-purpose] CHILDTASK make the marker") {
		t.Errorf("sessions list (%d, %s):\n%s", code, stderr, out)
	}
}
