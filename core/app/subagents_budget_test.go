package app

import (
	"testing"

	"pincer/core/agent"
)

// F6: a subagent's budget of model calls is its definition's maxTurns (the
// default when unset), never more than the run's own --max-turns.
func TestChildIterations(t *testing.T) {
	for _, c := range []struct{ def, run, want int }{
		{0, 50, agent.DefaultSubagentIterations},
		{0, 2, 2},
		{1000, 2, 2},
		{1000, 50, 50},
		{5, 50, 5},
		{5, 0, 5},
	} {
		if got := childIterations(c.def, c.run); got != c.want {
			t.Errorf("childIterations(%d, %d) = %d, want %d", c.def, c.run, got, c.want)
		}
	}
}
