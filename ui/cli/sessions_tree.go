package cli

import "pincer/persist"

// sessionRow is one line of `pincer sessions list`: a session and how deep
// it nests (0: top level, 1: a subagent's child session under its parent).
type sessionRow struct {
	persist.Session
	Depth int
}

// nestSessions orders sessions (newest first, as the store lists them) as a
// tree: each top-level session, then its subagents' child sessions, newest
// first, indented one level per generation (ParentID). A child whose parent
// is not in the list (deleted, or never prompted) stands at the top level in
// its own place; a ParentID loop is broken where it closes, so every session
// is listed exactly once.
func nestSessions(list []persist.Session) []sessionRow {
	present := make(map[string]bool, len(list))
	for _, s := range list {
		present[s.ID] = true
	}
	kids := map[string][]persist.Session{}
	var roots []persist.Session
	for _, s := range list {
		if s.ParentID != "" && s.ParentID != s.ID && present[s.ParentID] {
			kids[s.ParentID] = append(kids[s.ParentID], s)
			continue
		}
		roots = append(roots, s)
	}
	out := make([]sessionRow, 0, len(list))
	seen := make(map[string]bool, len(list))
	var walk func(s persist.Session, depth int)
	walk = func(s persist.Session, depth int) {
		if seen[s.ID] {
			return
		}
		seen[s.ID] = true
		out = append(out, sessionRow{s, depth})
		for _, c := range kids[s.ID] {
			walk(c, depth+1)
		}
	}
	for _, s := range roots {
		walk(s, 0)
	}
	for _, s := range list { // in a ParentID loop: no root reaches them
		if !seen[s.ID] {
			walk(s, 0)
		}
	}
	return out
}
