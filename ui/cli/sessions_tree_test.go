package cli

import (
	"reflect"
	"testing"

	"pincer/persist"
)

func TestNestSessions(t *testing.T) {
	s := func(id, parent string) persist.Session { return persist.Session{ID: id, ParentID: parent} }
	cases := []struct {
		name string
		in   []persist.Session
		want []string // ID@depth
	}{
		{"no children: as listed", []persist.Session{s("b", ""), s("a", "")}, []string{"b@0", "a@0"}},
		{"children under their parent, newest first", []persist.Session{s("c2", "p"), s("q", ""), s("c1", "p"), s("p", "")},
			[]string{"q@0", "p@0", "c2@1", "c1@1"}},
		{"a child whose parent is not listed stands alone", []persist.Session{s("c", "gone"), s("p", "")}, []string{"c@0", "p@0"}},
		{"grandchildren nest deeper", []persist.Session{s("g", "c"), s("c", "p"), s("p", "")}, []string{"p@0", "c@1", "g@2"}},
		{"a loop is listed once each", []persist.Session{s("x", "y"), s("y", "x")}, []string{"x@0", "y@1"}},
		{"its own parent", []persist.Session{s("x", "x")}, []string{"x@0"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, r := range nestSessions(tc.in) {
				got = append(got, r.ID+"@"+string(rune('0'+r.Depth)))
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("nestSessions = %v, want %v", got, tc.want)
			}
		})
	}
}
