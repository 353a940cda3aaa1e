package app

import (
	"os"

	"pincer/core/config"
	"pincer/core/prompt"
)

// warnRefusedInstructions adds a warning (FILE: why) for each instruction
// file (AGENTS.md, CLAUDE.md, CLAUDE.local.md, an @import) that was refused
// for what it is or where it leads — a symbolic link out of the project, to a
// credentials location or to /proc, a FIFO: the system prompt goes without it
// (prompt.Instructions.Refused), and the person learns why at start.
func (s *Setup) warnRefusedInstructions() {
	in, err := prompt.LoadInstructions(s.Workspace.Root(), os.Getenv("PINCER_HOME"), config.PathsFrom(os.Getenv).Home)
	if err != nil {
		return
	}
	s.Warnings = append(s.Warnings, in.Refused...)
}
