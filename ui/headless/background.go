package headless

import (
	"context"

	"pincer/core/agent"
)

// maxBackgroundRounds bounds the turns a run gives its session for the
// results of background subagents (a turn may start more of them).
const maxBackgroundRounds = 5

// afterBackground is what `pincer run` does when the turn that completed
// (res) leaves background subagents running, or their results unread: as
// Claude Code's print mode, it waits for them, then gives the session one
// more turn whose input is their results (agent.TurnInput.Reminders), and
// again while that turn starts more. The result is the last turn's, with
// the model calls and usage of all of them. A turn that did not complete
// ends it (its children are cancelled with it), and so do the run's model
// calls reaching the agent's budget (`--max-turns`, counted over all the
// rounds): children still running are then cancelled as the run closes,
// each recorded as ended (Subagents.EndAll).
func afterBackground(ctx context.Context, ag *agent.Agent, sessionID string, res agent.TurnResult) (agent.TurnResult, error) {
	for range maxBackgroundRounds {
		if res.Outcome != agent.OutcomeCompleted {
			return res, nil
		}
		if res.Iterations >= ag.MaxIterations() {
			return res, nil // --max-turns bounds the run's model calls, these rounds' too
		}
		if len(ag.Subagents().Running(sessionID)) == 0 && !ag.HasReminders(sessionID) {
			return res, nil
		}
		if _, err := ag.Subagents().WaitAll(ctx, sessionID); err != nil {
			return res, nil // interrupted: the run ends with what it has
		}
		if !ag.HasReminders(sessionID) {
			return res, nil
		}
		next, err := ag.SubmitTurnInput(ctx, sessionID, agent.TurnInput{Reminders: true})
		if err != nil {
			return res, err
		}
		next.Iterations += res.Iterations
		next.Usage.Add(res.Usage)
		res = next
	}
	return res, nil
}
