package app

import (
	"context"
	"errors"
	"fmt"

	"pincer/core/agent"
	"pincer/persist"
)

// FindSession returns the session with id or, when cont, the newest session of
// cwd in which a prompt was sent (one without any — another workbench open
// now, or one a crash left — is passed over: there is nothing to continue).
// A subagent's child session (ParentID set) is never continued so: it is
// part of its parent's, which --continue picks (as Claude Code's sidechains).
func FindSession(ctx context.Context, store persist.Store, id string, cont bool, cwd string) (persist.Session, error) {
	if cont {
		list, err := store.ListSessions(ctx, 0)
		if err != nil {
			return persist.Session{}, err
		}
		for _, s := range list {
			if s.Cwd == cwd && s.ParentID == "" && prompted(ctx, store, s) {
				return s, nil
			}
		}
		return persist.Session{}, fmt.Errorf("no session to continue in %s: run without --continue to start one", cwd)
	}
	full, err := ResolveSessionID(ctx, store, id)
	if err != nil {
		return persist.Session{}, err
	}
	s, err := store.GetSession(ctx, full)
	if errors.Is(err, persist.ErrNotFound) {
		return s, &SessionIDError{ID: id}
	}
	return s, err
}

// prompted reports whether a prompt was ever sent in s: its record has a title
// (a turn's first input), or it has messages.
func prompted(ctx context.Context, store persist.Store, s persist.Session) bool {
	if s.Title != "" {
		return true
	}
	msgs, err := store.ListMessages(ctx, s.ID)
	return err == nil && len(msgs) > 0
}

// pickSession returns the session to run in (new, --continue or --session) and the
// log cursor from which stream-json prints.
func pickSession(ctx context.Context, ag *agent.Agent, store persist.Store, cont bool, session, cwd string) (string, uint64, error) {
	if cont || session != "" {
		s, err := FindSession(ctx, store, session, cont, cwd)
		if err != nil {
			return "", 0, err
		}
		if s.Cwd != cwd {
			return "", 0, fmt.Errorf("session %s belongs to %s: run pincer from that directory to continue it", s.ID, s.Cwd)
		}
		after, err := store.LastEventSequence(ctx, s.ID)
		return s.ID, after, err
	}
	s, err := ag.CreateSession(ctx)
	if err != nil {
		return "", 0, err
	}
	return s.ID, 0, nil
}
