package tui

// WorkbenchCommands are the names (with aliases) of the commands only the
// workbench runs itself — /help, /loop, /mcp, /model, ... —, not the agent's
// own (/compact, /init), which `pincer run` takes too: what `pincer run`
// refuses as "works in the workbench only".
func WorkbenchCommands() []string {
	var out []string
	for _, c := range slashCommands {
		if c.turn {
			continue
		}
		out = append(out, c.name)
		out = append(out, c.aliases...)
	}
	return out
}
