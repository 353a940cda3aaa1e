package app

import (
	"context"

	"pincer/core/agent"
)

// EstimateContext is the workbench's /context, as `pincer run "/context"`:
// how many tokens the session's next model call would send (estimated, no
// model call), of the model's window (Window 0: unknown), in how many
// messages.
func (b *Backend) EstimateContext(ctx context.Context, sessionID string) (agent.ContextUse, error) {
	return b.agentFor(sessionID).EstimateContext(ctx, sessionID)
}
