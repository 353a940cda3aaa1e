package browser

import (
	"reflect"
	"testing"
)

func TestTreeNestsChildren(t *testing.T) {
	s := func(id, parent string) Summary { return Summary{ID: id, ParentID: parent, Title: id} }
	all := []Summary{s("c2", "p"), s("q", ""), s("g", "c1"), s("c1", "p"), s("p", ""), s("lost", "gone")}
	rows := func(exp map[string]bool) []string {
		var out []string
		for _, r := range tree(all, exp) {
			out = append(out, r.ID+"@"+string(rune('0'+r.Depth))+"/"+string(rune('0'+r.Kids)))
		}
		return out
	}
	cases := []struct {
		name string
		exp  map[string]bool
		want []string
	}{
		{"collapsed by default: parents count their children", nil, []string{"q@0/0", "p@0/2", "lost@0/0"}},
		{"expanded: children under the parent, newest first", map[string]bool{"p": true}, []string{"q@0/0", "p@0/2", "c2@1/0", "c1@1/1", "lost@0/0"}},
		{"a grandchild shows when both are expanded", map[string]bool{"p": true, "c1": true}, []string{"q@0/0", "p@0/2", "c2@1/0", "c1@1/1", "g@2/0", "lost@0/0"}},
		{"an expanded child under a collapsed parent stays hidden", map[string]bool{"c1": true}, []string{"q@0/0", "p@0/2", "lost@0/0"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := rows(tc.exp); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("tree = %v, want %v", got, tc.want)
			}
		})
	}
	loop := tree([]Summary{s("x", "y"), s("y", "x")}, map[string]bool{"x": true})
	if len(loop) != 2 {
		t.Errorf("a ParentID loop lists %d rows, want 2", len(loop))
	}
}

func TestToggleChildren(t *testing.T) {
	st := State{All: []Summary{{ID: "c", ParentID: "p", AgentType: "Explore"}, {ID: "p"}, {ID: "q"}}}
	if st.Toggle("q") {
		t.Error("a session with no children toggled")
	}
	if !st.Toggle("p") || len(st.Rows()) != 3 {
		t.Fatalf("expanding p: rows %v", st.Rows())
	}
	if got := st.Rows()[1]; got.ID != "c" || got.Depth != 1 {
		t.Errorf("row under p = %+v", got)
	}
	st.Filter = "explore" // a filter lists matches flat, by type too
	if rows := st.Rows(); len(rows) != 1 || rows[0].ID != "c" {
		t.Errorf("filtered rows = %v", rows)
	}
	st.Filter = ""
	if !st.Toggle("c") || len(st.Rows()) != 2 || st.sel != "p" {
		t.Errorf("toggling on a child collapses its parent and selects it: rows %v sel %q", st.Rows(), st.sel)
	}
	if got := treeTitle(Summary{Depth: 1, AgentType: "Explore"}, "find it"); got != "└ [Explore] find it" {
		t.Errorf("child title = %q", got)
	}
	if got := treeTitle(Summary{Kids: 2}, "fix it"); got != "fix it  ⊕ 2 subagents" {
		t.Errorf("parent title = %q", got)
	}
}
