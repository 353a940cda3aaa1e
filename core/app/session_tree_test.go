package app

import (
	"reflect"
	"testing"
)

// SessionTree nests children under their parent in list order, keeps an
// orphan at the top, breaks a ParentID loop and hides collapsed children.
func TestSessionTree(t *testing.T) {
	type s struct{ id, parent string }
	list := []s{{"p", ""}, {"c1", "p"}, {"g", "c1"}, {"o", "gone"}, {"c2", "p"}, {"x", "y"}, {"y", "x"}}
	id := func(i int) string { return list[i].id }
	parent := func(i int) string { return list[i].parent }
	all := SessionTree(len(list), id, parent, nil)
	want := []TreeRow{{0, 0, 2}, {1, 1, 1}, {2, 2, 0}, {4, 1, 0}, {3, 0, 0}, {5, 0, 1}, {6, 1, 1}}
	if !reflect.DeepEqual(all, want) {
		t.Fatalf("tree %v, want %v", all, want)
	}
	collapsed := SessionTree(len(list), id, parent, func(id string) bool { return id == "p" })
	want = []TreeRow{{0, 0, 2}, {1, 1, 1}, {4, 1, 0}, {3, 0, 0}, {5, 0, 1}}
	if !reflect.DeepEqual(collapsed, want) {
		t.Fatalf("collapsed %v, want %v", collapsed, want)
	}
}
