package app

import (
	"context"

	"pincer/core/agent"
	"pincer/persist/memory"
	"pincer/sandbox"
	"pincer/tools"
)

// ScratchBackend is a Backend over a fresh in-memory store that keeps
// nothing, with the default tools in the workspace dir on model (no provider
// is asked until a turn is sent), and the ID of the one session it created.
// It is for a workbench that must not touch the person's store: ui/tui's
// start-up benchmark (internal/benchmain) attaches it.
func ScratchBackend(ctx context.Context, dir, model string) (*Backend, string, error) {
	ws, err := sandbox.NewWorkspace(dir)
	if err != nil {
		return nil, "", err
	}
	store := memory.New()
	ag, err := agent.New(agent.Config{Store: store, Tools: tools.Default(), Workspace: ws, ModelName: model})
	if err != nil {
		return nil, "", err
	}
	s, err := ag.CreateSession(ctx)
	if err != nil {
		return nil, "", err
	}
	return &Backend{Agent: ag, Store: store}, s.ID, nil
}
