package cli

import (
	"pincer/core/app"
)

// sessionRow is one line of `pincer sessions list`: a session and how deep
// it nests (0: top level, 1: a subagent's child session under its parent).
type sessionRow struct {
	app.SessionRecord
	Depth int
}

// nestSessions orders sessions (newest first, as the store lists them) as a
// tree: each top-level session, then its subagents' child sessions, newest
// first, indented one level per generation (ParentID). A child whose parent
// is not in the list (deleted, or never prompted) stands at the top level in
// its own place; a ParentID loop is broken where it closes, so every session
// is listed exactly once.
func nestSessions(list []app.SessionRecord) []sessionRow {
	rows := app.SessionTree(len(list), func(i int) string { return list[i].ID },
		func(i int) string { return list[i].ParentID }, nil)
	out := make([]sessionRow, len(rows))
	for k, r := range rows {
		out[k] = sessionRow{list[r.Index], r.Depth}
	}
	return out
}
