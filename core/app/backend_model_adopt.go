package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"pincer/core/agent"
	"pincer/core/config"
)

// needsProvider reports whether running session sessionID on model id
// (PROVIDER/MODEL) needs a new provider, not just a new model name: the
// session's agent has none (it started without a model), or id names
// another provider than the one it runs on.
func (b *Backend) needsProvider(sessionID, id string) bool {
	ag := b.agentFor(sessionID)
	if !ag.HasProvider() {
		return true
	}
	want, _, _ := config.ParseModelID(id)
	have, _, ok := config.ParseModelID(ag.ModelName())
	return !ok || !strings.EqualFold(want, have)
}

// adoptModel makes session sessionID run on model id with a provider made
// for it now (SessionModel, which reads the configuration as saved), and
// records the change as /model switch does (the session's record, a
// model.changed event): for a switch to another provider's model, and for
// a session with no model when /model configure saved one. Errors: no
// resolver (a front end that cannot build providers), the model's (an
// unknown provider, a missing key), a turn running.
func (b *Backend) adoptModel(ctx context.Context, sessionID, id string) error {
	if b.SessionModel == nil {
		return fmt.Errorf("this front end cannot change providers: start pincer again to use %s", id)
	}
	p, c, err := b.SessionModel(id)
	if err != nil {
		return err
	}
	ag := b.agentFor(sessionID)
	if err := ag.UseModel(p, c); err != nil {
		if errors.Is(err, agent.ErrTurnActive) {
			return errSwitchRunning
		}
		return err
	}
	if err := ag.SwitchModel(ctx, sessionID, c); err != nil {
		if errors.Is(err, agent.ErrTurnActive) {
			return errSwitchRunning
		}
		return err
	}
	return nil
}
