package tui

import (
	"strings"
	"testing"
)

// An Agent row at 80/120/200 cells (the timeline's text width is the pane's
// less icon and duration) keeps its type, description and current tool, cut
// at its end, never elided in the middle (NU4).
func TestFitSubagentRow(t *testing.T) {
	lead := "▸ [general-purpose]"
	desc := "explore the repository and find where the config loader lives"
	prog := "Grep loadConfig · 12 model calls"
	for _, tc := range []struct {
		name       string
		lead, desc string
		prog       string
		avail      int
		want       string
	}{
		{"200 whole", lead, desc, prog, 200, lead + " " + desc + " · " + prog},
		{"120 description cut", lead, desc, prog, 110, "▸ [general-purpose] explore the repository and find where the config loade… · Grep loadConfig · 12 model calls"},
		{"80 desc cut, tool kept", lead, desc, prog, 70, "▸ [general-purpose] explore the repository … · Grep loadConfig · 12 m…"},
		{"40 both cut", lead, desc, prog, 38, "▸ [general-purpose] explore… · Grep l…"},
		{"30 progress dropped", lead, desc, prog, 30, "▸ [general-purpose] explore t…"},
		{"lead alone too long", lead, desc, prog, 10, "▸ [genera…"},
		{"no description", "▸ [Explore]", "", "Read go.mod · 2 model calls", 25, "▸ [Explore] · Read go.mo…"},
		{"short progress fits", "▾ [Plan]", desc, "done · 3 model calls", 60, "▾ [Plan] explore the repository and … · done · 3 model calls"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := fitSubagentRow(tc.lead, tc.desc, tc.prog, tc.avail)
			if got != tc.want {
				t.Errorf("fitSubagentRow(%d) = %q, want %q", tc.avail, got, tc.want)
			}
			if w := textWidth(got); w > tc.avail {
				t.Errorf("width %d > %d", w, tc.avail)
			}
			if !strings.HasPrefix(got, tc.lead[:min(len(tc.lead), 8)]) {
				t.Errorf("%q lost its lead", got)
			}
		})
	}
}

// A subagent's request keeps its tool: the label is shortened first (NU4).
func TestFitLabelled(t *testing.T) {
	for _, tc := range []struct {
		prefix, label, text string
		avail               int
		want                string
	}{
		{"", "general-purpose", "Bash: ls -la", 80, "[general-purpose] Bash: ls -la"},
		{"", "general-purpose", "Bash: ls -la", 20, "[gene…] Bash: ls -la"},
		{"", "general-purpose", "Bash: ls -la", 25, "[general-p…] Bash: ls -la"},
		{"tab 2 · ", "Explore", "Bash: ls -la", 26, "tab 2 · [Ex…] Bash: ls -la"},
		{"", "general-purpose", "Bash: go test ./... -run TestX", 20, "[g…] Bash: go test …"},
		{"", "general-purpose", "Bash: ls", 11, "[g…] Bash:…"},
		{"", "", "Bash: ls", 5, "Bash…"},
	} {
		if got := fitLabelled(tc.prefix, tc.label, tc.text, tc.avail); got != tc.want {
			t.Errorf("fitLabelled(%q, %q, %d) = %q, want %q", tc.label, tc.text, tc.avail, got, tc.want)
		}
	}
}

func TestSubagentCount(t *testing.T) {
	if got := subagentCount(1); got != "1 subagent running" {
		t.Error(got)
	}
	if got := subagentCount(3); got != "3 subagents running" {
		t.Error(got)
	}
}
