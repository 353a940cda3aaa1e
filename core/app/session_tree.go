package app

// TreeRow is one row of SessionTree: the index of a session in the list
// given, how deep it nests (0: top level, 1: a subagent's child session
// under its parent, ...) and how many child sessions it has in the list.
type TreeRow struct {
	Index, Depth, Kids int
}

// SessionTree orders n sessions (newest first, as the store lists them; id
// and parent give session i's ID and ParentID) as a tree: each top-level
// session, then its subagents' child sessions in list order, one level
// deeper per generation. A child whose parent is not in the list stands at
// the top level in its own place; a ParentID loop is broken where it closes,
// so every session is reachable exactly once. When expanded is set, only
// the children of the sessions it reports expanded (and of their shown
// children) are in the result — the sessions browser's collapsed rows;
// nil lists every session. `pincer sessions list` and the sessions browser
// both nest by it.
func SessionTree(n int, id, parent func(i int) string, expanded func(id string) bool) []TreeRow {
	index := make(map[string]int, n)
	for i := range n {
		index[id(i)] = i
	}
	kids := map[string][]int{}
	var roots []int
	for i := range n {
		p := parent(i)
		if _, ok := index[p]; ok && p != "" && p != id(i) {
			kids[p] = append(kids[p], i)
			continue
		}
		roots = append(roots, i)
	}
	seen := make([]bool, n)
	out := make([]TreeRow, 0, n)
	var walk func(i, depth int, shown bool)
	walk = func(i, depth int, shown bool) {
		if seen[i] {
			return
		}
		seen[i] = true
		k := kids[id(i)]
		if shown {
			out = append(out, TreeRow{Index: i, Depth: depth, Kids: len(k)})
		}
		open := shown && (expanded == nil || expanded(id(i)))
		for _, c := range k {
			walk(c, depth+1, open)
		}
	}
	for _, i := range roots {
		walk(i, 0, true)
	}
	for i := range n { // in a ParentID loop: no root reaches them
		if !seen[i] {
			walk(i, 0, true)
		}
	}
	return out
}
