package subagent

import (
	"strings"
)

// Listing is the text the parent's model chooses an agent type from, for the
// Agent tool's description (as Claude Code lists the types there, under the
// tool's own heading): one line per definition, "- NAME: DESCRIPTION (Tools: ...)". The tools
// are the definition's as written (ToolsText), not resolved against the
// parent's registry, so the text stays the same for the whole session (the
// tool definitions are part of the cached prompt prefix). "" for an empty or
// nil catalog.
func (c *Catalog) Listing() string {
	defs := c.Definitions()
	if len(defs) == 0 {
		return ""
	}
	var b strings.Builder
	for _, d := range defs {
		b.WriteString("- ")
		b.WriteString(d.Name)
		b.WriteString(": ")
		b.WriteString(d.Description)
		b.WriteString(" (Tools: ")
		b.WriteString(ToolsText(d))
		if d.ReadOnly() {
			b.WriteString("; read-only")
		}
		if d.Isolation == IsolationWorktree {
			b.WriteString("; works in its own git worktree")
		}
		b.WriteString(")\n")
	}
	return b.String()
}

// ToolsText is a definition's tools as the listing and /agents show them:
// "All tools", "All tools except Write, Edit", "Glob, Grep, Read, Bash" (the
// listed minus the disallowed and the nesting tools; server-level names as
// written), or "none".
func ToolsText(d Definition) string {
	if d.Tools == nil {
		var not []string
		for _, t := range d.DisallowedTools {
			if !NeverSubagent(t) {
				not = append(not, t)
			}
		}
		if len(not) == 0 {
			return "All tools"
		}
		return "All tools except " + strings.Join(not, ", ")
	}
	var out []string
	for _, t := range d.Tools {
		if NeverSubagent(t) || disallowed(d, t) {
			continue
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// disallowed reports whether a DisallowedTools name of d covers tool name t.
func disallowed(d Definition, t string) bool {
	for _, not := range d.DisallowedTools {
		if matches(not, t) {
			return true
		}
	}
	return false
}
