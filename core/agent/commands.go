package agent

import (
	"context"
	"strings"
)

// initPrompt is what "/init" asks the model, as Claude Code's /init: write the
// project's instructions file.
const initPrompt = `Please analyse this repository and write an AGENTS.md file at its root for future coding agents working in it. Include:

1. The commands to build, test (including running a single test), lint and run the project.
2. The architecture: the main packages or modules, how they fit together, and where things live — the big picture that takes reading several files to see.
3. Conventions that are not obvious: code style, naming, error handling, how tests are written.

Read the existing README, build files and any CLAUDE.md, AGENTS.md, .cursorrules or .github/copilot-instructions.md first and keep what is still true. If AGENTS.md already exists, improve it instead of replacing it. Be concise: no generic advice, nothing that a quick look at the file tree already shows.`

// expandCommand turns a slash command that is a prompt in disguise into that
// prompt; other input is returned as is. "/init" asks for an AGENTS.md.
func expandCommand(input string) string {
	if strings.TrimSpace(input) == "/init" {
		return initPrompt
	}
	return input
}

// ContextUse is what a session's next model call would send: its estimated tokens
// and the model's window (0: unknown).
type ContextUse struct {
	Tokens   int64
	Window   int64
	Messages int
}

// EstimateContext estimates the context the session's next model call would use
// (the "/context" view), without calling the model.
func (a *Agent) EstimateContext(ctx context.Context, sessionID string) (ContextUse, error) {
	msgs, err := a.cfg.Store.ListMessages(ctx, sessionID)
	if err != nil {
		return ContextUse{}, err
	}
	dyn := ""
	if a.cfg.DynamicPrompt != nil {
		dyn = a.cfg.DynamicPrompt()
	}
	dyn = a.withDiagnostics(sessionID, dyn)
	instr := ""
	if a.cfg.Instructions != nil {
		instr = a.cfg.Instructions()
	}
	view := buildView(msgs, dyn, instr)
	return ContextUse{Tokens: EstimateTokens(view), Window: a.cfg.ContextWindow, Messages: len(view)}, nil
}
