package app

import (
	"context"

	"pincer/persist"
)

// ChildSessions are the subagents' child sessions of session id (ParentID
// id; the session itself never), newest first as the store lists them.
func ChildSessions(ctx context.Context, store persist.Store, id string) ([]persist.Session, error) {
	all, err := store.ListSessions(ctx, 0)
	if err != nil {
		return nil, err
	}
	var kids []persist.Session
	for _, c := range all {
		if c.ParentID == id && c.ID != id {
			kids = append(kids, c)
		}
	}
	return kids, nil
}
