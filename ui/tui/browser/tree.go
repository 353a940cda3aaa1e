package browser

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
	present := make(map[string]bool, len(all))
	for _, s := range all {
		present[s.ID] = true
	}
	kids := map[string][]Summary{}
	var roots []Summary
	for _, s := range all {
		if s.ParentID != "" && s.ParentID != s.ID && present[s.ParentID] {
			kids[s.ParentID] = append(kids[s.ParentID], s)
			continue
		}
		roots = append(roots, s)
	}
	seen := make(map[string]bool, len(all))
	var out []Summary
	var walk func(s Summary, depth int, shown bool)
	walk = func(s Summary, depth int, shown bool) {
		if seen[s.ID] {
			return
		}
		seen[s.ID] = true
		s.Depth, s.Kids = depth, len(kids[s.ID])
		if shown {
			out = append(out, s)
		}
		for _, c := range kids[s.ID] {
			walk(c, depth+1, shown && expanded[s.ID])
		}
	}
	for _, s := range roots {
		walk(s, 0, true)
	}
	for _, s := range all { // in a ParentID loop: no root reaches them
		if !seen[s.ID] {
			walk(s, 0, true)
		}
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
