package agent

import (
	"os"

	"pincer/core/prompt"
)

// importedInstructions returns the absolute paths of the files the project's
// instructions (AGENTS.md, CLAUDE.md, ... found from the workspace root, as
// prompt.LoadInstructions finds them) import with @path and that lie in the
// workspace, for permission.Input.Instructions: a write to one asks in every
// mode, since the next session gives its text to the model. The fixed names
// themselves are protected paths already. nil when there are none.
func (a *Agent) importedInstructions() []string {
	ws := a.cfg.Workspace
	if ws == nil {
		return nil
	}
	in, err := prompt.LoadInstructions(ws.Root(), os.Getenv("PINCER_HOME"), a.cfg.Home)
	if err != nil {
		return nil
	}
	var out []string
	for _, f := range in.Files {
		if f.Imported && ws.Contains(f.Path) {
			out = append(out, f.Path)
		}
	}
	return out
}
