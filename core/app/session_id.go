package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"pincer/persist"
)

// SessionIDError is ResolveSessionID's refusal: no session has the ID (or a
// short form of it), or the short form fits several, listed in Candidates
// (newest first).
type SessionIDError struct {
	ID         string
	Candidates []string
}

func (e *SessionIDError) Error() string {
	if len(e.Candidates) == 0 {
		return fmt.Sprintf("no session %q (see \"pincer sessions\")", e.ID)
	}
	return fmt.Sprintf("session %q is ambiguous: it could be %s", e.ID, strings.Join(e.Candidates, ", "))
}

// ResolveSessionID is the one resolver of a session ID a person typed, for
// every command that takes one (--session, sessions show and watch, audit
// --session): an exact ID is itself; otherwise a unique prefix or suffix of a
// stored session's ID (the short form the workbench's status line shows is
// the random suffix) is that session's ID. None, or several, is a
// *SessionIDError (the ambiguous one lists the candidates).
func ResolveSessionID(ctx context.Context, store persist.Store, id string) (string, error) {
	if id == "" {
		return "", &SessionIDError{ID: id}
	}
	if _, err := store.GetSession(ctx, id); err == nil || errors.Is(err, persist.ErrCorrupt) {
		return id, nil // a record that does not decode is there all the same
	} else if !errors.Is(err, persist.ErrNotFound) {
		return "", err
	}
	list, err := store.ListSessions(ctx, 0)
	if err != nil && !errors.Is(err, persist.ErrCorrupt) {
		return "", err
	}
	var matches []string
	for _, s := range list {
		if strings.HasPrefix(s.ID, id) || strings.HasSuffix(s.ID, id) {
			matches = append(matches, s.ID)
		}
	}
	switch len(matches) {
	case 1:
		return matches[0], nil
	case 0:
		return "", &SessionIDError{ID: id}
	}
	return "", &SessionIDError{ID: id, Candidates: matches}
}
