package app

import (
	"context"
	"os"

	"pincer/core/config"
	"pincer/core/event"
	"pincer/core/memory"
	"pincer/persist"
)

// withdrawRewoundSkills rejects the pending skill candidates learned from
// turns a code rewind undid (turnIDs: the rewound turn and those after it):
// the work they were drafted from is gone, so they are no workflow that
// worked. The rejection goes through core/memory's decision path (the audit
// trail, candidate.decided), by "rewind". A candidate that cannot be
// rejected stays pending: the person still decides it.
func withdrawRewoundSkills(ctx context.Context, store persist.Store, sess persist.Session, turnIDs []string) []string {
	paths := config.PathsFrom(os.Getenv)
	m := &memory.Manager{Store: store, ConfigDir: paths.Config, DataDir: paths.Data, Project: sess.Cwd, Log: event.NewLog(store)}
	cs, err := store.ListCandidates(ctx, memory.Filter{Kind: memory.KindSkill, Status: memory.StatusPending, SessionID: sess.ID})
	if err != nil {
		return nil
	}
	undone := map[string]bool{}
	for _, id := range turnIDs {
		undone[id] = true
	}
	var out []string
	for _, c := range cs {
		if c.TurnID == "" || !undone[c.TurnID] {
			continue
		}
		if _, err := m.Decide(ctx, "", c.ID, memory.Decision{Action: memory.Reject, By: "rewind",
			Reason: "the turn it was learned from was rewound"}); err == nil {
			out = append(out, c.ID)
		}
	}
	return out
}
