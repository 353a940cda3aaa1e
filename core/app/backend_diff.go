package app

import "context"

// SessionDiff is the unified diff of what the tool calls of session id in
// span changed in its workspace (SessionDiffOf over the backend's store): the
// workbench's per-turn, per-call and time-travel diffs of past sessions.
func (b *Backend) SessionDiff(ctx context.Context, id string, span DiffSpan) (string, error) {
	return SessionDiffOf(ctx, b.Store, id, span)
}
