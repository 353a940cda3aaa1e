package agent

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"pincer/tools"
)

//go:embed teamdelete.md
var teamDeleteDescription string

// teamDeleteInput is TeamDelete's input.
type teamDeleteInput struct {
	Name string `json:"name"`
}

// teamDeleteSchema is teamDeleteInput's JSON Schema.
const teamDeleteSchema = `{
  "type": "object",
  "properties": {
    "name": {"type": "string", "description": "The team's name"}
  },
  "required": ["name"],
  "additionalProperties": false
}`

// teamDeleteTool is TeamDelete of one lead agent.
type teamDeleteTool struct{ a *Agent }

// Spec implements tools.Tool.
func (t *teamDeleteTool) Spec() tools.Spec {
	return tools.Spec{Name: TeamDeleteToolName, Description: teamDeleteDescription, Schema: json.RawMessage(teamDeleteSchema), Kind: tools.KindRead}
}

// Summary implements tools.Summarizer: `TeamDelete review`.
func (t *teamDeleteTool) Summary(input json.RawMessage) string {
	var in teamDeleteInput
	_ = json.Unmarshal(input, &in)
	return TeamDeleteToolName + " " + in.Name
}

// Run implements tools.Tool: it ends the team (running members cancelled,
// waited for) and says how each member was left.
func (t *teamDeleteTool) Run(ctx context.Context, env *tools.Env, input json.RawMessage) (tools.Result, error) {
	var in teamDeleteInput
	if err := json.Unmarshal(input, &in); err != nil {
		return tools.Result{}, fmt.Errorf("invalid input: %w", err)
	}
	states, err := t.a.deleteTeam(ctx, env.SessionID, strings.TrimSpace(in.Name), turnOf(ctx))
	if err != nil {
		return tools.Result{}, err
	}
	return tools.Result{Output: fmt.Sprintf("Team %s deleted; members: %s.", strings.TrimSpace(in.Name), strings.Join(states, ", "))}, nil
}
