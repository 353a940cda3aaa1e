package browser

import "pincer/core/app"

// Child sessions in the browser: a subagent's session is listed under its
// parent, collapsed by default (the parent's row counts them); expanding the
// parent (Toggle) shows them indented under it, newest first. A filter lists
// every match flat, children included (each labelled with its type). A
// child whose parent is not in the list stands at the top level.

// tree orders all (newest first) as the browser lists it unfiltered: each
// top-level session, then — when expanded — its children, depth one level
// per generation; Depth and Kids are set on each row. A ParentID loop is
// broken where it closes: every session is reachable exactly once.
func tree(all []Summary, expanded map[string]bool) []Summary {
	rows := app.SessionTree(len(all), func(i int) string { return all[i].ID },
		func(i int) string { return all[i].ParentID }, func(id string) bool { return expanded[id] })
	out := make([]Summary, len(rows))
	for k, r := range rows {
		out[k] = all[r.Index]
		out[k].Depth, out[k].Kids = r.Depth, r.Kids
	}
	return out
}

// Toggle expands or collapses the children of the session id (or, for a
// child, of its parent, which keeps the selection: the child's row goes).
// It reports whether there was anything to toggle.
func (s *State) Toggle(id string) bool {
	for _, x := range tree(s.All, s.Expanded) {
		if x.ID != id {
			continue
		}
		if x.Kids == 0 && x.Depth > 0 {
			id, s.sel = x.ParentID, x.ParentID
		} else if x.Kids == 0 {
			return false
		}
		if s.Expanded == nil {
			s.Expanded = map[string]bool{}
		}
		s.Expanded[id] = !s.Expanded[id]
		if !s.Expanded[id] {
			delete(s.Expanded, id)
		}
		return true
	}
	return false
}
