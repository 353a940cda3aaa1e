package cli

import (
	"strings"
	"testing"

	"pincer/core/skill/learn"
	"pincer/ui/tui"
)

// TestLearnedSkillsAvoidEveryCommand: no learned skill may take a name a
// command has — the workbench's own (with aliases), the agent's (/compact,
// /init) — so a proposal never shadows one nor is shadowed (learn.Reserved
// is kept beside the table it guards).
func TestLearnedSkillsAvoidEveryCommand(t *testing.T) {
	names := append(tui.WorkbenchCommands(), "/compact", "/init")
	for _, n := range names {
		name := strings.TrimPrefix(n, "/")
		if err := learn.ValidName(name); err == nil {
			t.Errorf("a learned skill may be named %q, the command %s", name, n)
		}
	}
}
