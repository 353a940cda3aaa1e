package agent

import (
	"context"
	"fmt"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/core/permission"
	"pincer/core/provider"
)

// ModelChoice is a model to switch to, as the composition root resolved it: ID as
// the provider takes it ("gpt-4.1"), Name as shown and stored ("openai/gpt-4.1"),
// and what the catalog knows of it: the context window in tokens (0: unknown, no
// automatic compaction) and the pricing of a call (nil: unknown).
type ModelChoice struct {
	ID, Name      string
	ContextWindow int64
	Cost          func(message.Usage) *float64
}

// SetMode changes the permission mode in force (SetPermissionMode) and records the
// change as a mode.changed event on sessionID, so that a replay of the session
// shows it. The mode changes before anything is written: decisions made from now
// on, in running turns too, use it. An unchanged mode records nothing; so does an
// empty sessionID. The error is the event log's.
func (a *Agent) SetMode(ctx context.Context, sessionID string, m permission.Mode) error {
	a.changes.Lock() // one change recorded at a time: the log shows them in the order made
	defer a.changes.Unlock()
	prev := a.Mode()
	a.SetPermissionMode(m)
	if prev == m || sessionID == "" {
		return nil
	}
	_, err := a.log.Emit(ctx, event.ModeChanged, sessionID, "",
		event.ModeChangedData{Mode: string(m), Previous: string(prev)})
	return err
}

// SwitchModel makes c the model of the agent's next model calls (SetModel: the
// provider stays) and of sessionID: the session's record stores c.Name, and a
// model.changed event records the change. It fails with ErrTurnActive while the
// session runs a turn in this process, and with the store's error when the record
// cannot be read or written (then nothing changed).
func (a *Agent) SwitchModel(ctx context.Context, sessionID string, c ModelChoice) error {
	a.changes.Lock()
	defer a.changes.Unlock()
	a.mu.Lock()
	busy := a.active[sessionID]
	a.mu.Unlock()
	if busy {
		return fmt.Errorf("switch the model: %w", ErrTurnActive)
	}
	s, err := a.cfg.Store.GetSession(ctx, sessionID)
	if err != nil {
		return err
	}
	prev := s.Model
	s.Model = c.Name
	if err := a.cfg.Store.PutSession(ctx, s); err != nil {
		return err
	}
	a.SetModel(c.ID, c.Name, c.ContextWindow, c.Cost)
	_, err = a.log.Emit(ctx, event.ModelChanged, sessionID, "",
		event.ModelChangedData{Model: c.Name, Previous: prev, ContextWindow: c.ContextWindow})
	return err
}

// ModelName returns the model of the next model calls, as shown ("openai/gpt-4.1").
func (a *Agent) ModelName() string { return a.modelName() }

// UseModel makes p and c the provider and model of the agent's next turns
// without changing any session's record: the agent follows a session it resumes
// to the model that session runs on, so nothing is recorded (SwitchModel is the
// change a person asks for). It fails with ErrTurnActive while any turn of this
// agent runs.
func (a *Agent) UseModel(p provider.Provider, c ModelChoice) error {
	a.changes.Lock()
	defer a.changes.Unlock()
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, busy := range a.active {
		if busy {
			return fmt.Errorf("use model %s: %w", c.Name, ErrTurnActive)
		}
	}
	a.cfg.Provider = p
	a.cfg.Model, a.cfg.ModelName = c.ID, c.Name
	a.cfg.ContextWindow, a.cfg.Cost = c.ContextWindow, c.Cost
	return nil
}

// HasProvider reports whether the agent has a provider to call: false for
// an agent started without a model (the workbench opens without one), whose
// turns fail with ErrNoProvider until UseModel gives it one.
func (a *Agent) HasProvider() bool { return a.currentProvider() != nil }

// currentProvider is the provider of the next model call (nil: none configured).
func (a *Agent) currentProvider() provider.Provider {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.cfg.Provider
}
