package agent

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"pincer/tools"
)

//go:embed sendmessage.md
var sendMessageDescription string

// sendMessageInput is SendMessage's input.
type sendMessageInput struct {
	To      string `json:"to"`
	Message string `json:"message"`
}

// sendMessageSchema is sendMessageInput's JSON Schema.
const sendMessageSchema = `{
  "type": "object",
  "properties": {
    "to": {"type": "string", "description": "A team member's name, or \"lead\""},
    "message": {"type": "string", "description": "The message"}
  },
  "required": ["to", "message"],
  "additionalProperties": false
}`

// sendMessageTool is SendMessage of one agent: from a team's lead session to
// a member, or from a member's session to another member or the lead.
type sendMessageTool struct{ a *Agent }

// Spec implements tools.Tool (kind read: it only delivers text).
func (t *sendMessageTool) Spec() tools.Spec {
	return tools.Spec{Name: SendMessageToolName, Description: sendMessageDescription, Schema: json.RawMessage(sendMessageSchema), Kind: tools.KindRead}
}

// Summary implements tools.Summarizer: `SendMessage to bob`.
func (t *sendMessageTool) Summary(input json.RawMessage) string {
	var in sendMessageInput
	_ = json.Unmarshal(input, &in)
	return SendMessageToolName + " to " + in.To
}

// Run implements tools.Tool: it finds the caller's team (the member's, or
// the lead's team that has a member named to) and delivers the message.
func (t *sendMessageTool) Run(ctx context.Context, env *tools.Env, input json.RawMessage) (tools.Result, error) {
	var in sendMessageInput
	if err := json.Unmarshal(input, &in); err != nil {
		return tools.Result{}, fmt.Errorf("invalid input: %w", err)
	}
	to := strings.TrimSpace(in.To)
	if tm, m, ok := t.a.teamOfMember(env.SessionID); ok {
		from := teamEnd{name: m.name, sessionID: env.SessionID, agent: t.a, member: m}
		if err := t.a.sendTeamMessage(ctx, tm, from, to, in.Message, turnOf(ctx)); err != nil {
			return tools.Result{}, err
		}
		return tools.Result{Output: fmt.Sprintf("Message sent to %s (team %s).", to, tm.name)}, nil
	}
	teams := t.a.teams.teamsOf(env.SessionID)
	if len(teams) == 0 {
		return tools.Result{}, fmt.Errorf("this session has no team: start one with TeamCreate")
	}
	tm, _, ok := t.a.teams.memberNamed(env.SessionID, to)
	if !ok {
		var all []string
		for _, tm := range teams {
			all = append(all, tm.name+": "+strings.Join(tm.names(), ", "))
		}
		return tools.Result{}, fmt.Errorf("no member named %q (%s)", to, strings.Join(all, "; "))
	}
	from := teamEnd{name: TeamLead, sessionID: env.SessionID, agent: t.a}
	if err := t.a.sendTeamMessage(ctx, tm, from, to, in.Message, turnOf(ctx)); err != nil {
		return tools.Result{}, err
	}
	return tools.Result{Output: fmt.Sprintf("Message sent to %s (team %s).", to, tm.name)}, nil
}
