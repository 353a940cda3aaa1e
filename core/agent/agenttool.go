package agent

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"pincer/tools"
)

// The Agent tool (Claude Code's; Task is its older name). An agent whose
// Config has a Spawner offers it; the children it builds have none, so a
// subagent never starts subagents.

// AgentToolName is the tool's name; TaskToolName, its older one, is accepted
// in calls (a transcript or a model that still says Task) but never offered.
const (
	AgentToolName = "Agent"
	TaskToolName  = "Task"
)

//go:embed agenttool.md
var agentToolDescription string

// agentInput is the Agent tool's input, Claude Code's parameters.
type agentInput struct {
	Description     string `json:"description"`
	Prompt          string `json:"prompt"`
	SubagentType    string `json:"subagent_type,omitempty"`
	Model           string `json:"model,omitempty"`
	RunInBackground bool   `json:"run_in_background,omitempty"`
	Isolation       string `json:"isolation,omitempty"`
}

// agentSchema is agentInput's JSON Schema (agenttool_test.go holds the two to
// the same fields).
const agentSchema = `{
  "type": "object",
  "properties": {
    "description": {"type": "string", "description": "A short (3-5 word) description of the task"},
    "prompt": {"type": "string", "description": "The task for the subagent to perform: everything it needs to know"},
    "subagent_type": {"type": "string", "description": "The type of subagent to use (see the list in the description); general-purpose when absent"},
    "model": {"type": "string", "description": "A model ID of the current provider for this subagent; absent or \"inherit\": the parent's model"},
    "run_in_background": {"type": "boolean", "description": "Return at once with the subagent's ID; its result arrives later as a system reminder"},
    "isolation": {"type": "string", "enum": ["worktree"], "description": "\"worktree\": run in a new git worktree on a new branch"}
  },
  "required": ["description", "prompt"],
  "additionalProperties": false
}`

// agentTool is the Agent tool of one agent (the parent's).
type agentTool struct{ a *Agent }

// Spec implements tools.Tool. Its kind is read: the call itself changes
// nothing (every tool call of the child is decided on by itself, in the
// child's mode), so no mode asks for it, plan mode included; a deny rule
// naming Agent (or Task) still denies it.
func (t *agentTool) Spec() tools.Spec {
	desc := agentToolDescription
	if l := strings.TrimSpace(t.a.cfg.Spawner.Listing()); l != "" {
		desc += "\nAvailable agent types:\n" + l + "\n"
	}
	return tools.Spec{Name: AgentToolName, Description: desc, Schema: json.RawMessage(agentSchema), Kind: tools.KindRead}
}

// Summary implements tools.Summarizer: `Agent Explore: find the parser`.
func (t *agentTool) Summary(input json.RawMessage) string {
	var in agentInput
	_ = json.Unmarshal(input, &in)
	kind := in.SubagentType
	if kind == "" {
		kind = "general-purpose"
	}
	s := AgentToolName + " " + kind + ": " + in.Description
	if in.RunInBackground {
		s += " (background)"
	}
	if in.Isolation == "worktree" {
		s += " (worktree)"
	}
	return s
}

// concurrent reports whether a call with input may run beside the other
// concurrency-safe calls of its response: a read-only type, a worktree run
// (it writes only its own worktree) or a background run (it returns at once).
func (t *agentTool) concurrent(input json.RawMessage) bool {
	var in agentInput
	if json.Unmarshal(input, &in) != nil {
		return false
	}
	return in.RunInBackground || in.Isolation == "worktree" || t.a.cfg.Spawner.ReadOnly(agentTypeOr(in.SubagentType))
}

// agentTypeOr is name, or general-purpose when name is empty.
func agentTypeOr(name string) string {
	if strings.TrimSpace(name) == "" {
		return "general-purpose"
	}
	return strings.TrimSpace(name)
}

// Run implements tools.Tool: it starts the child and, in the foreground,
// runs it to its end; the result is the child's final text and usage line
// (childResultText). In the background it returns the child's ID at once.
func (t *agentTool) Run(ctx context.Context, env *tools.Env, input json.RawMessage) (tools.Result, error) {
	var in agentInput
	if err := json.Unmarshal(input, &in); err != nil {
		return tools.Result{}, fmt.Errorf("invalid input: %w", err)
	}
	if strings.TrimSpace(in.Prompt) == "" {
		return tools.Result{}, fmt.Errorf("the prompt is empty: say what the subagent is to do")
	}
	parentTurn := turnOf(ctx)
	req := SpawnRequest{
		ParentSessionID: env.SessionID, ToolCallID: env.ToolCallID, AgentType: agentTypeOr(in.SubagentType),
		Description: in.Description, Isolation: in.Isolation, Background: in.RunInBackground, ParentMode: t.a.Mode(),
		Model: in.Model, ParentModel: t.a.model(),
	}
	run, err := t.a.startChild(ctx, req, parentTurn)
	if err != nil {
		return tools.Result{}, err
	}
	if in.RunInBackground {
		info := run.info // before the run can change it
		go t.a.runChild(run, in.Prompt, "")
		return tools.Result{Output: backgroundStartedText(info)}, nil
	}
	res := t.a.runChild(run, in.Prompt, parentTurn)
	return tools.Result{Output: childResultText(res), IsError: res.Outcome != OutcomeCompleted}, nil
}

// turnKey carries the ID of the turn running a tool call in its context.
type turnKey struct{}

// withTurn returns ctx carrying turnID (decideAndRun, for the Agent tool).
func withTurn(ctx context.Context, turnID string) context.Context {
	return context.WithValue(ctx, turnKey{}, turnID)
}

// turnOf is the turn ID withTurn put in ctx, or "".
func turnOf(ctx context.Context) string {
	id, _ := ctx.Value(turnKey{}).(string)
	return id
}
