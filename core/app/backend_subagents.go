package app

import (
	"fmt"

	"pincer/core/agent"
)

// CancelSubagent cancels the run of a subagent's child session in this
// process (agent.Subagents.Cancel: its turn ends cancelled, and the parent
// gets that as the Agent call's result, or as a background run's reminder).
// It fails with agent.ErrNoSuchChild when no run of that session goes on
// here (it ended, or another process runs it).
func (b *Backend) CancelSubagent(childSessionID string) error {
	if !b.Agent.Subagents().Cancel(childSessionID) {
		return fmt.Errorf("%w: %s is not running in this process", agent.ErrNoSuchChild, childSessionID)
	}
	return nil
}

// RunningSubagents lists the child session IDs of sessionID's subagents this
// process runs now (foreground and background), oldest first.
func (b *Backend) RunningSubagents(sessionID string) []string {
	var ids []string
	for _, c := range b.Agent.Subagents().Running(sessionID) {
		ids = append(ids, c.SessionID)
	}
	return ids
}
