package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"pincer/core/agent"
	"pincer/core/permission"
	"pincer/core/provider/providertest"
)

// travelledSession runs a two-turn session with checkpoints on a fresh
// workbench, answering through the backend: turn 1 reads a.txt, edits it
// (hello → HELLO) and runs a command that deletes b.txt and creates c.txt;
// turn 2 edits a.txt again (world → WORLD). It returns the agent and the
// session.
func travelledSession(t *testing.T) (*agent.Agent, string) {
	t.Helper()
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c0", "Read", `{"file_path":"a.txt"}`)),
		providertest.ToolCalls(providertest.ToolCall("c1", "Edit", `{"file_path":"a.txt","old_string":"hello","new_string":"HELLO"}`)),
		providertest.ToolCalls(providertest.ToolCall("c2", "Bash", `{"command":"rm b.txt && printf 'sea\\n' > c.txt"}`)),
		providertest.Text("Turn one done."),
		providertest.ToolCalls(providertest.ToolCall("c3", "Edit", `{"file_path":"a.txt","old_string":"world","new_string":"WORLD"}`)),
		providertest.Text("All done."),
	}}
	b := startBench(t, 120, 40, Options{})
	ag, root := newTravelAgent(t, prov)
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b.w.Attach(backendOf(ag), s.ID)
	b.waitText(shortID(s.ID) + " · idle")
	answer := func(turns int) {
		for {
			var req string
			done := false
			b.waitModel("a request or the turn's end", func(m *Model) bool {
				if len(m.Approvals) > 0 {
					req = m.Approvals[0].RequestID
				}
				done = m.Status.Turns == turns && m.Status.Turn == TurnCompleted
				return req != "" || done
			})
			if done {
				return
			}
			if err := backendOf(ag).Resolve(req, permission.Allow, permission.ScopeOnce, ""); err != nil {
				t.Fatal(err)
			}
			b.waitModel("the answer", func(m *Model) bool { _, still := m.Approval(req); return !still })
		}
	}
	b.send("first turn")
	answer(1)
	b.send("second turn")
	answer(2)
	for name, want := range map[string]string{"a.txt": "HELLO\nWORLD\n", "c.txt": "sea\n"} {
		if got, err := os.ReadFile(filepath.Join(root, name)); err != nil || string(got) != want {
			t.Fatalf("%s = %q, %v (the command ran? %s)", name, got, err, b.text())
		}
	}
	b.stop()
	return ag, s.ID
}

// diffPane is the text of the diff pane's column in a 120-column stacked
// or columns frame: the rows from its title down (the right-hand 48 cells).
func diffPaneOf(screen string) string {
	var out strings.Builder
	in := false
	for _, l := range strings.Split(screen, "\n") {
		r := []rune(l)
		if len(r) < 48 {
			continue
		}
		col := string(r[len(r)-48:])
		if strings.Contains(col, "4 Diff") {
			in = true
		}
		if in {
			out.WriteString(col + "\n")
		}
	}
	return out.String()
}

// TestTimeTravelKeysAndDiffs: a past session opened from the browser with
// Ctrl+B starts at its end; { } < > and [ ] move the step, and the diff
// pane shows the workspace's changes from the start to the step (the
// command's deletion and creation included, from the checkpoints), the
// step's turn's, the selected call's, or what the session showed; a request
// pending at a step answers nothing; Esc returns to the workbench's own
// session.
func TestTimeTravelKeysAndDiffs(t *testing.T) {
	ag, sid := travelledSession(t)
	evs := events(t, ag, sid)
	last := evs[len(evs)-1].Sequence
	b := startBench(t, 120, 40, Options{})
	own, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b.w.Attach(backendOf(ag), own.ID)
	b.waitText(shortID(own.ID) + " · idle")
	b.key(tcell.KeyCtrlO, 0, tcell.ModNone)
	b.waitText("first turn")
	b.typeText("first turn")
	b.key(tcell.KeyCtrlB, 0, tcell.ModNone)
	b.waitText(fmt.Sprintf("seq %d/%d · turn 2/2", last, last))
	diffHas := func(what string, want, not []string) {
		t.Helper()
		s := b.waitFor(what, func(s string) bool {
			d := diffPaneOf(s)
			for _, w := range want {
				if !strings.Contains(d, w) {
					return false
				}
			}
			return true
		})
		for _, n := range not {
			if strings.Contains(diffPaneOf(s), n) {
				t.Errorf("%s: %q in the diff pane:\n%s", what, n, s)
			}
		}
	}
	diffHas("the workspace since the start, at the end", []string{"4 Diff: 3 files", "+HELLO", "+WORLD", "-bee", "b/c.txt"}, nil)

	var turn2 uint64 // the sequence of turn 2's turn.started
	for _, ev := range evs {
		if ev.Type == "turn.started" {
			turn2 = ev.Sequence
		}
	}
	b.typeText("{") // the start of turn 2: its Edit has not run
	b.waitText(fmt.Sprintf("seq %d/%d · turn 2/2", turn2, last), "second turn")
	diffHas("the workspace at turn 2's start", []string{"+HELLO", "-bee", "b/c.txt"}, []string{"WORLD"})
	if strings.Contains(b.text(), "All done.") {
		t.Errorf("turn 2's answer shows at its start:\n%s", b.text())
	}
	b.typeText("d")
	diffHas("turn 2's changes at its start", []string{"this turn's changes", "This turn had changed no"}, nil)
	b.typeText(">")
	b.waitText(fmt.Sprintf("seq %d/%d", last, last), "All done.")
	diffHas("turn 2's changes", []string{"-world", "+WORLD"}, []string{"sea", "bee"})
	b.typeText("d")
	diffHas("the last call's changes", []string{"Edit a.txt · its", "+WORLD"}, []string{"sea"})
	b.key(tcell.KeyRune, '2', tcell.ModAlt)
	b.typeText("k") // the command's call, above the last Edit
	diffHas("the command's changes", []string{"· Bash: rm b.txt", "-bee", "+sea"}, []string{"WORLD"})
	b.typeText("d")
	diffHas("as the session showed it", []string{"4 Diff: Bash: rm b.txt"}, []string{"· its"})

	b.typeText("<")
	b.waitText(fmt.Sprintf("seq 1/%d · turn 0/2", last), "2 Timeline (0)")
	b.typeText("[") // nothing before the start
	b.waitText(fmt.Sprintf("seq 1/%d", last))

	// To the step where turn 1's Edit waited: nothing answers it.
	pending := 0
	for i, ev := range evs {
		if ev.Type == "permission.requested" {
			pending = i + 1
			break
		}
	}
	for range pending - 1 {
		b.typeText("]")
	}
	b.waitText(fmt.Sprintf("seq %d/%d", evs[pending-1].Sequence, last), "3 Approvals (1 pending then")
	b.key(tcell.KeyRune, '3', tcell.ModAlt)
	b.afterReading("y")
	b.waitText("nothing waits for this answer")
	if n := len(events(t, ag, sid)); n != len(evs) {
		t.Errorf("an answer in time travel reached the log: %d events, was %d", n, len(evs))
	}

	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	s := b.waitText(shortID(own.ID) + " · idle")
	if strings.Contains(s, "time travel") {
		t.Errorf("still travelling after Esc:\n%s", s)
	}
}
