package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"pincer/core/provider/providertest"
)

// TestApprovalsPaneKeepsTheDecided (Found 13): after three decisions the
// approvals pane says so ("3 decided") and lists them under the pending
// queue, newest first, each with its outcome — not "Approvals (0) nothing
// yet". A request arriving later is selected, so y answers it and not a
// decided row.
func TestApprovalsPaneKeepsTheDecided(t *testing.T) {
	write := func(id, name string) providertest.Step {
		return providertest.ToolCalls(providertest.ToolCall(id, "Write", `{"file_path":"`+name+`.txt","content":"`+strings.ToUpper(name)+`\n"}`))
	}
	prov := &providertest.Scripted{Steps: []providertest.Step{
		write("c1", "one"), write("c2", "two"), write("c3", "three"), write("c4", "four"),
		{Events: providertest.TextEvents("All done.")},
	}}
	b, _, _, root := attached(t, 160, 50, prov)
	b.send("shout")
	b.waitText("3 Approvals (1)", "+ONE")
	b.key(tcell.KeyRune, '3', tcell.ModAlt)
	b.afterReading("y")
	b.waitText("+TWO", "3 Approvals (1) · 1 decided")
	b.afterReading("n")
	b.waitText("+THREE", "3 Approvals (1) · 2 decided")
	b.afterReading("y")
	s := b.waitText("+FOUR", "3 Approvals (1) · 3 decided")
	// The pending request first, then the decided ones, newest first.
	pane := b.approvalsPane(s)
	yFour, _ := rowOf(pane, "Write four.txt")
	yThree, _ := rowOf(pane, "Write three.txt")
	yOne, _ := rowOf(pane, "Write one.txt")
	if yFour < 0 || yThree < 0 || yOne < 0 || !(yFour < yThree && yThree < yOne) {
		t.Fatalf("approvals pane rows out of order (four %d, three %d, one %d):\n%s", yFour, yThree, yOne, s)
	}
	if !strings.Contains(lines(pane)[yThree], "allowed once") || !strings.Contains(lines(pane)[yOne], "allowed once") {
		t.Errorf("decided rows do not say how they were decided:\n%s", s)
	}
	b.afterReading("y") // the new request is the selected row
	s = b.waitText("All done.", "3 Approvals (0) · 4 decided")
	pane = b.approvalsPane(s)
	if y, _ := rowOf(pane, "Write two.txt"); y < 0 || !strings.Contains(lines(pane)[y], "denied") {
		t.Errorf("the pane does not list the denied request:\n%s", s)
	}
	for name, want := range map[string]bool{"one": true, "two": false, "three": true, "four": true} {
		if _, err := os.Stat(filepath.Join(root, name+".txt")); (err == nil) != want {
			t.Errorf("%s.txt written: %v, want %v", name, err == nil, want)
		}
	}
}

// approvalsPane cuts the approvals pane out of a screen: its rows, its columns.
func (b *simBench) approvalsPane(screen string) string {
	var x, y, w, h int
	b.onLoop(func() { x, y, w, h = b.w.approvals.GetRect() })
	var out []string
	for i, l := range lines(screen) {
		if i < y || i >= y+h {
			continue
		}
		r := []rune(l)
		out = append(out, string(r[min(x, len(r)):min(x+w, len(r))]))
	}
	return strings.Join(out, "\n")
}
