package agent

import "pincer/tools"

// teamTools are the team tools the turn's session offers: TeamCreate,
// SendMessage and TeamDelete for an agent with a Spawner and Config.Teams (a
// lead), SendMessage
// alone in a live team member's session (whose agent has no Spawner: members
// never start subagents or teams), none otherwise.
func (t *turn) teamTools() []tools.Tool {
	if t.a.cfg.Spawner != nil && t.a.cfg.Teams {
		return []tools.Tool{&teamCreateTool{a: t.a}, &sendMessageTool{a: t.a}, &teamDeleteTool{a: t.a}}
	}
	if _, _, ok := t.a.teamOfMember(t.sess.ID); ok {
		return []tools.Tool{&sendMessageTool{a: t.a}}
	}
	return nil
}
