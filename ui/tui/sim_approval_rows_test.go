package tui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"pincer/core/provider/providertest"
)

// TestApprovalRowsAt80 is a new user's finding: at 80x24 the approvals rows
// were cut in their middles ("? Wri….py  Wri…val", "? Bash: git add
// …ing from main'  the command ne…ng from main'") and the title lost its
// decided count. A row shows the tool, then as much of its summary as fits,
// cut once at its end, the command never twice; the title keeps the count.
func TestApprovalRowsAt80(t *testing.T) {
	cmd := "git add -A && git commit -m 'bring the approvals handler over from main'"
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "Write", `{"file_path":"src/services/approvals_handler.py","content":"X = 1\n"}`)),
		providertest.ToolCalls(providertest.ToolCall("c2", "Bash", `{"command":"`+cmd+`"}`)),
		{Events: providertest.TextEvents("All done.")},
	}}
	b, _, _, _ := attached(t, 80, 24, prov)
	b.send("go")
	s := b.waitText("+X = 1")
	b.key(tcell.KeyRune, '3', tcell.ModAlt)
	checkRow := func(s, tool string) {
		t.Helper()
		pane := b.approvalsPane(s)
		y, _ := rowOf(pane, tool)
		if y < 0 {
			t.Fatalf("no row starting with the tool %s:\n%s", tool, s)
		}
		row := strings.Trim(lines(pane)[y], "│║ ")
		if i := strings.Index(row, "…"); i >= 0 && strings.TrimSpace(row[i+len("…"):]) != "" {
			t.Errorf("the row is cut before its end: %q\n%s", row, s)
		}
		if strings.Count(row, "git add") > 1 || strings.Count(row, "Write") > 1 {
			t.Errorf("the row says the same twice: %q", row)
		}
	}
	checkRow(s, "? Write src/serv")
	b.afterReading("y")
	s = b.waitText("Bash command:")
	checkRow(s, "? Bash: git add")
	checkRow(s, "✓ Write src/serv")
	if title := regexp.MustCompile(`3 [^─═]*`).FindString(lines(b.approvalsPane(s))[0]); !strings.Contains(title, "1 decided") && !strings.Contains(title, "1 · 1 done") {
		t.Errorf("the title lost the decided count: %q\n%s", title, s)
	}
	b.afterReading("y")
	s = b.waitText("All done.")
	if title := lines(b.approvalsPane(s))[0]; !strings.Contains(title, "2 decided") && !strings.Contains(title, "(0 · 2 done)") {
		t.Errorf("the title lost the decided count: %q\n%s", title, s)
	}
	checkRow(s, "✓ Bash: git add")
}
