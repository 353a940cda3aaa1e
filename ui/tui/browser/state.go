package browser

// Max is how many sessions (newest first) the browser lists.
const Max = 500

// State is the browser: the loaded sessions, the filter, the selection, the
// delete confirmation and a status line.
type State struct {
	Open      bool
	Loading   bool
	Gen       int       // load generation: a reopened browser ignores older loaders
	All       []Summary // newest first
	Filter    string
	Filtering bool   // printable keys go to the filter (as it opens); false: the command mode, after Esc
	Confirm   string // ID of the session d asked to delete
	Status    string // a line under the list: a refusal, an error, progress
	// Expanded holds the sessions whose subagents' child sessions are shown
	// under them (tree.go); collapsed by default.
	Expanded map[string]bool

	sel     string // ID of the selected session
	idx     int    // its last known row
	offset  int    // first row shown
	visible int    // rows shown in the last frame
}

// Step is a move of the selection.
type Step int

// The moves.
const (
	Down Step = iota
	Up
	Top
	Bottom
	PageDown
	PageUp
)

// Reopen returns the state of a browser opened anew: empty, loading, with the
// next load generation.
func (s *State) Reopen() State {
	return State{Open: true, Loading: true, Filtering: true, Gen: s.Gen + 1}
}

// Rows returns the sessions the filter lets through: unfiltered, as a tree
// (children under their expanded parent: tree.go), filtered every match.
func (s *State) Rows() []Summary {
	if s.Filter == "" {
		return tree(s.All, s.Expanded)
	}
	var out []Summary
	for _, x := range s.All {
		if x.Matches(s.Filter) {
			out = append(out, x)
		}
	}
	return out
}

// Selected resolves the selection in rows (by ID, else the nearest row) and
// returns its index, -1 for an empty list.
func (s *State) Selected(rows []Summary) int {
	if len(rows) == 0 {
		s.idx = 0
		return -1
	}
	for i, x := range rows {
		if x.ID == s.sel {
			s.idx = i
			return i
		}
	}
	s.idx = max(0, min(s.idx, len(rows)-1))
	s.sel = rows[s.idx].ID
	return s.idx
}

// Move moves the selection from row i of rows (a page is the rows the last
// frame showed).
func (s *State) Move(step Step, rows []Summary, i int) {
	if i < 0 {
		return
	}
	page := max(1, s.visible-1)
	switch step {
	case Down:
		i++
	case Up:
		i--
	case Top:
		i = 0
	case Bottom:
		i = len(rows) - 1
	case PageDown:
		i += page
	case PageUp:
		i -= page
	}
	i = max(0, min(i, len(rows)-1))
	s.idx, s.sel = i, rows[i].ID
}

// Type adds a rune to the filter.
func (s *State) Type(r rune) { s.Filter += string(r) }

// Backspace removes the filter's last rune (the filter keeps the keys: Esc
// leaves it).
func (s *State) Backspace() {
	if r := []rune(s.Filter); len(r) > 0 {
		s.Filter = string(r[:len(r)-1])
	}
}

// Update replaces the summary with the same ID (the stats of its log).
func (s *State) Update(sum Summary) {
	for i := range s.All {
		if s.All[i].ID == sum.ID {
			s.All[i] = sum
		}
	}
}

// Remove drops a session from the list (it was deleted).
func (s *State) Remove(id string) {
	kept := s.All[:0:0]
	for _, x := range s.All {
		if x.ID != id {
			kept = append(kept, x)
		}
	}
	s.All = kept
}
