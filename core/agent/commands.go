package agent

import (
	"context"
	"strings"

	"pincer/core/message"
	"pincer/core/provider"
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

// ContextUse is what a session's next model call would send: its estimated
// tokens (EstimateTokens' ~4 bytes a token) and the model's window (0:
// unknown). Tokens is the whole: the messages (the system message a new
// session's first turn stores included) and the tool definitions, as
// Claude Code's /context counts its system tools.
type ContextUse struct {
	Tokens   int64
	Window   int64
	Messages int
	// ToolTokens are the tool definitions' share of Tokens (name,
	// description, JSON schema) and Tools how many are sent.
	ToolTokens int64
	Tools      int
}

// EstimateContext estimates the context the session's next model call would use
// (the "/context" view), without calling the model: before the first turn the
// system prompt it would store (new user r22: /context said ~0) and, always,
// the tool definitions the call would offer (makeOffer's, as a turn's first
// call; none with the text protocol, whose prompt is in the system message).
// A sessionID of "" is a new session's (nothing is read from the store).
func (a *Agent) EstimateContext(ctx context.Context, sessionID string) (ContextUse, error) {
	var msgs []message.Message
	if sessionID != "" {
		var err error
		if msgs, err = a.cfg.Store.ListMessages(ctx, sessionID); err != nil {
			return ContextUse{}, err
		}
	}
	if len(msgs) == 0 {
		if sp := a.newSessionPrompt(); sp != "" {
			msgs = []message.Message{message.NewText(message.RoleSystem, sp)}
		}
	}
	o := a.makeOffer(loadedTools(nil, msgs), nil)
	dyn := ""
	if a.cfg.DynamicPrompt != nil {
		dyn = a.cfg.DynamicPrompt()
	}
	dyn = withAnnouncement(msgs, a.withDiagnostics(sessionID, dyn), o.announce)
	instr := ""
	if a.cfg.Instructions != nil {
		instr = a.cfg.Instructions()
	}
	view := buildView(msgs, dyn, instr)
	use := ContextUse{Window: a.cfg.ContextWindow, Messages: len(view)}
	if a.textProtocol() {
		view = textView(view)
	} else {
		use.ToolTokens, use.Tools = estimateToolTokens(o.specs), len(o.specs)
	}
	use.Tokens = EstimateTokens(view) + use.ToolTokens
	return use, nil
}

// estimateToolTokens estimates the tokens of tool definitions as sent: ~4
// bytes a token of name, description and schema, plus a few for the framing.
func estimateToolTokens(specs []provider.ToolSpec) int64 {
	var n int64
	for _, sp := range specs {
		n += 8 + int64(len(sp.Name)+len(sp.Description)+len(sp.Schema))/4
	}
	return n
}
