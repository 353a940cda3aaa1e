package tui

import (
	"strings"
	"testing"
)

// TestSlashTable: every command of the table is either the agent's (a turn's
// input) or run here, never both; names and aliases are unique; the help screen
// and the completion list every command of the table.
func TestSlashTable(t *testing.T) {
	seen := map[string]bool{}
	w := &Workbench{keys: DefaultKeyMap(), UIState: UIState{sessionTab: &sessionTab{model: NewModel()}}}
	help := strings.Join(w.helpLines(), "\n")
	for _, c := range slashCommands {
		if c.turn == (c.run != nil) {
			t.Errorf("%s: turn %v, run set %v", c.name, c.turn, c.run != nil)
		}
		for _, n := range append([]string{c.name}, c.aliases...) {
			if seen[n] || !strings.HasPrefix(n, "/") {
				t.Errorf("name %q repeated or without a slash", n)
			}
			seen[n] = true
			if got, ok := lookupSlash(n); !ok || got.name != c.name {
				t.Errorf("lookupSlash(%q) = %q, %v", n, got.name, ok)
			}
		}
		if !strings.Contains(help, c.name+" "+c.args) {
			t.Errorf("help lacks %s", c.name)
		}
		if agentCommand(c.name+" x") != c.turn {
			t.Errorf("agentCommand(%s) = %v", c.name, !c.turn)
		}
	}
	if _, ok := lookupSlash("/nope"); ok {
		t.Error("an unknown command was found")
	}
}
