package app

import (
	"context"

	"pincer/core/event"
	"pincer/core/memory"
)

// OpenMemoryBackend is the Backend of `pincer memory` for the workspace at
// the current directory: the store (OpenStore) and the memory Manager over
// it, nothing else (no agent, no provider, no configuration read). The
// caller closes it with CloseMemoryBackend. ErrNoMemory without pincer's
// config and data dirs.
func OpenMemoryBackend() (*Backend, error) {
	ws, err := WorkspaceHere()
	if err != nil {
		return nil, err
	}
	store, err := OpenStore()
	if err != nil {
		return nil, err
	}
	m := memoryManager(store, event.NewLog(store), ws.Root())
	if m == nil {
		store.Close()
		return nil, ErrNoMemory
	}
	return &Backend{Store: store, Memory: m}, nil
}

// CloseMemoryBackend closes the store OpenMemoryBackend opened.
func CloseMemoryBackend(b *Backend) error {
	if b == nil || b.Store == nil {
		return nil
	}
	return b.Store.Close()
}

// Candidate is candidate id as stored (persist.ErrNotFound for none).
func (b *Backend) Candidate(ctx context.Context, id string) (memory.Candidate, error) {
	if b.Memory == nil {
		return memory.Candidate{}, ErrNoMemory
	}
	return b.Memory.Store.GetCandidate(ctx, id)
}

// RepairMemory writes the accepted candidates a crash (or a failed write)
// left unwritten and removes the temp files a crashed write left
// (memory.Manager.Repair); it returns those it wrote.
func (b *Backend) RepairMemory(ctx context.Context) ([]memory.Candidate, error) {
	if b.Memory == nil {
		return nil, ErrNoMemory
	}
	return b.Memory.Repair(ctx)
}

// MemoryPaths are the memory and skill locations of the Backend's project
// (USER.md, the user's memory dir, the project's memory dir and MEMORY.md,
// the skills dirs).
func (b *Backend) MemoryPaths() (memory.Paths, error) {
	if b.Memory == nil {
		return memory.Paths{}, ErrNoMemory
	}
	return b.Memory.Paths(), nil
}
