package browser

import "testing"

// TestStateSelectionFollowsTheSession: the selection is a session, not a row:
// filtering and removing keep it on the same session while it is listed, and
// move it to the nearest row when it is not.
func TestStateSelectionFollowsTheSession(t *testing.T) {
	s := State{Open: true, All: []Summary{{ID: "a", Title: "fix the parser"}, {ID: "b", Title: "write docs"},
		{ID: "c", Title: "parser tests"}}}
	rows := s.Rows()
	s.Move(Bottom, rows, s.Selected(rows))
	if got := s.Selected(s.Rows()); got != 2 {
		t.Fatalf("bottom = row %d", got)
	}
	s.Filter = "parser"
	rows = s.Rows()
	if len(rows) != 2 || rows[s.Selected(rows)].ID != "c" {
		t.Errorf("filtered rows %v, selection %d", rows, s.Selected(rows))
	}
	s.Filter, s.Filtering = "", false
	s.Remove("c")
	rows = s.Rows()
	if len(rows) != 2 || rows[s.Selected(rows)].ID != "b" {
		t.Errorf("after removing the selected: %v, %d", rows, s.Selected(rows))
	}
	s.Type('x')
	s.Backspace()
	if s.Filter != "" || s.Filtering {
		t.Errorf("filter %q filtering %v after typing and erasing", s.Filter, s.Filtering)
	}
	next := s.Reopen()
	if !next.Open || !next.Loading || next.Gen != s.Gen+1 || len(next.All) != 0 {
		t.Errorf("reopened = %+v", next)
	}
}
