package agent

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"pincer/tools"
)

// TeamCreateToolName, SendMessageToolName and TeamDeleteToolName are the team
// tools' names (Claude Code's). An agent with a Spawner offers all three; a
// team member's session offers SendMessage only.
const (
	TeamCreateToolName  = "TeamCreate"
	SendMessageToolName = "SendMessage"
	TeamDeleteToolName  = "TeamDelete"
)

//go:embed teamcreate.md
var teamCreateDescription string

// teamCreateInput is TeamCreate's input.
type teamCreateInput struct {
	Name    string           `json:"name"`
	Members []TeamMemberSpec `json:"members"`
}

// teamCreateSchema is teamCreateInput's JSON Schema (team_test.go holds the
// two to the same fields).
const teamCreateSchema = `{
  "type": "object",
  "properties": {
    "name": {"type": "string", "description": "The team's name"},
    "members": {
      "type": "array",
      "minItems": 1,
      "maxItems": 8,
      "items": {
        "type": "object",
        "properties": {
          "name": {"type": "string", "description": "The member's name: what SendMessage's to names"},
          "agent_type": {"type": "string", "description": "One of the Agent tool's types; general-purpose when absent"},
          "prompt": {"type": "string", "description": "The member's whole task"}
        },
        "required": ["name", "prompt"],
        "additionalProperties": false
      }
    }
  },
  "required": ["name", "members"],
  "additionalProperties": false
}`

// teamCreateTool is TeamCreate of one lead agent.
type teamCreateTool struct{ a *Agent }

// Spec implements tools.Tool. Like the Agent tool, its kind is read: the call
// changes nothing itself; each member's tool calls are decided on in the
// member's own mode.
func (t *teamCreateTool) Spec() tools.Spec {
	return tools.Spec{Name: TeamCreateToolName, Description: teamCreateDescription, Schema: json.RawMessage(teamCreateSchema), Kind: tools.KindRead}
}

// Summary implements tools.Summarizer: `TeamCreate review: alice, bob`.
func (t *teamCreateTool) Summary(input json.RawMessage) string {
	var in teamCreateInput
	_ = json.Unmarshal(input, &in)
	var names []string
	for _, m := range in.Members {
		names = append(names, m.Name)
	}
	return TeamCreateToolName + " " + in.Name + ": " + strings.Join(names, ", ")
}

// Run implements tools.Tool: it starts the team and returns at once with its
// members' IDs.
func (t *teamCreateTool) Run(ctx context.Context, env *tools.Env, input json.RawMessage) (tools.Result, error) {
	var in teamCreateInput
	if err := json.Unmarshal(input, &in); err != nil {
		return tools.Result{}, fmt.Errorf("invalid input: %w", err)
	}
	if t.a.cfg.Spawner == nil {
		return tools.Result{}, fmt.Errorf("this agent cannot start a team")
	}
	tm, err := t.a.createTeam(ctx, env.SessionID, env.ToolCallID, turnOf(ctx), strings.TrimSpace(in.Name), in.Members)
	if err != nil {
		return tools.Result{}, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Team %s started; its members work in the background:\n", tm.name)
	for _, m := range tm.members {
		fmt.Fprintf(&b, "- %s (%s) agentId: %s\n", m.name, m.agentType, m.run.info.SessionID)
	}
	b.WriteString("Their reports and messages to you (\"lead\") arrive as system reminders. Message them with SendMessage; end the team with TeamDelete.")
	return tools.Result{Output: b.String()}, nil
}
