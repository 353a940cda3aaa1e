package agent

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"

	"pincer/core/message"
	"pincer/core/permission"
	"pincer/tools"
)

// TurnInput is a turn's input with what a person's /NAME invocation of a
// skill or custom command adds (core/skill, expanded in core/app). The zero
// extras are a plain prompt.
type TurnInput struct {
	// Text is the line as sent ("/y src/a.go"): turn.started carries it and
	// UserPromptSubmit hooks see it; it is the user message unless Expand is
	// set.
	Text string
	// Expand, when set, makes the user message at the turn's start, after the
	// UserPromptSubmit hooks and with AllowedTools in force: it may run
	// commands and read files through run, each a Bash or Read tool call of
	// this turn (hooks, permission rules, the approval queue, the sandbox,
	// the audit trail; tool.started/tool.completed events with a "pre-" call
	// ID, no transcript tool result: the output is in the user message). An
	// error fails the turn before the model is called, nothing stored.
	Expand func(ctx context.Context, run PreTurn) (string, error)
	// AllowedTools are allow rules in force for this turn only (the file's
	// allowed-tools, granted because a person invoked it): deny rules, ask
	// rules, protected paths, hidden paths, the hard-deny list, plan mode and
	// the sandbox still hold, and the permission mode is unchanged.
	AllowedTools []permission.Rule
	// Model, when set, is the model ID this turn's calls send to the
	// session's provider.
	Model string
	// Tools are offered to the model besides the registry's, for this turn
	// only (the /update-config turn's ConfigEdit), through the same pipeline
	// as any tool (validation, hooks, permission, audit). One whose name the
	// registry already has is ignored: it never shadows a registered tool.
	Tools []tools.Tool
	// Reminders makes a turn with no prompt of its own: its input is what
	// Remind queued for the session (the results of background subagents
	// that ended after the last turn's last model call), and Text is
	// ignored. `pincer run` gives the parent this one more turn, as Claude
	// Code's print mode waits for its background tasks. No UserPromptSubmit
	// hook runs (there is no prompt); with nothing queued the turn fails
	// before the model is called.
	Reminders bool
}

// PreTurn runs what a /NAME template asks for before its turn (core/skill's
// Runner): Shell is a Bash tool call, ReadFile a Read tool call.
type PreTurn interface {
	Shell(ctx context.Context, command string) (string, error)
	ReadFile(ctx context.Context, path string) (string, error)
}

// SubmitTurnInput is SubmitTurn with a TurnInput.
func (a *Agent) SubmitTurnInput(ctx context.Context, sessionID string, in TurnInput) (TurnResult, error) {
	return a.submit(ctx, sessionID, in)
}

// expandInput applies in's extras at the turn's start: the turn's allow rules,
// then Expand through the turn's own tool pipeline.
func (t *turn) expandInput(ctx, bg context.Context) error {
	for _, r := range t.extra.AllowedTools {
		t.rules = t.rules.Add(permission.Allow, r)
	}
	if t.extra.Expand == nil {
		return nil
	}
	if t.seen == nil {
		t.seen = map[string]bool{}
	}
	text, err := t.extra.Expand(ctx, &preTurn{t: t, bg: bg})
	if err != nil {
		return err
	}
	if strings.TrimSpace(text) == "" {
		return errors.New("the command expanded to nothing")
	}
	t.input = text
	return nil
}

// preTurn is a turn's PreTurn.
type preTurn struct {
	t  *turn
	bg context.Context
}

// Shell runs command as a Bash tool call of the turn and returns its output;
// an error when it did not run (denied, blocked by a hook, failed to start).
func (p *preTurn) Shell(ctx context.Context, command string) (string, error) {
	return p.call(ctx, "Bash", map[string]any{"command": command, "description": "a command of the invoked /command"})
}

// ReadFile reads path (relative: to the workspace root; "~/": the home
// directory) as a Read tool call of the turn and returns its text.
func (p *preTurn) ReadFile(ctx context.Context, path string) (string, error) {
	switch {
	case strings.HasPrefix(path, "~/") && p.t.a.cfg.Home != "":
		path = filepath.Join(p.t.a.cfg.Home, path[2:])
	case !filepath.IsAbs(path):
		path = filepath.Join(p.t.a.cfg.Workspace.Root(), path)
	}
	return p.call(ctx, "Read", map[string]any{"file_path": filepath.Clean(path)})
}

// call runs one tool call through prepare and execute, as the model's are.
func (p *preTurn) call(ctx context.Context, tool string, input map[string]any) (string, error) {
	t := p.t
	raw, err := json.Marshal(input)
	if err != nil {
		return "", err
	}
	part := message.Part{Type: message.PartToolCall, ToolCallID: "pre-" + newID(), ToolName: tool, Input: string(raw)}
	prep := t.prepare(part)
	env := t.toolEnv()
	out := t.execute(ctx, p.bg, env, prep)
	if prep.done != nil || out.isError && ranNot(out.text) {
		return "", errors.New(out.text)
	}
	return out.text, nil
}

// ranNot reports whether a tool result says the call never ran.
func ranNot(text string) bool {
	for _, p := range []string{deniedPrefix, hookBlockedPrefix, failedPrefix, cancelledResult} {
		if strings.HasPrefix(text, p) {
			return true
		}
	}
	return false
}

// startedInput is turn.started's input: the line as sent for a /NAME
// invocation, else the input (a built-in command's prompt, as before).
func (t *turn) startedInput() string {
	if t.extra.Expand != nil {
		return t.typed
	}
	return t.input
}

// modelID is the model this turn's calls send: TurnInput.Model, else the
// agent's.
func (t *turn) modelID() string {
	if t.extra.Model != "" {
		return t.extra.Model
	}
	return t.a.cfg.Model
}
