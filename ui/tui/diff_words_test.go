package tui

import (
	"reflect"
	"testing"
)

// TestWordDiff: the changed words of a paired -/+ line are marked, the rest
// is not; a line pair past wordDiffMax is left whole.
func TestWordDiff(t *testing.T) {
	long := string(make([]byte, wordDiffMax))
	for _, tc := range []struct {
		name, old, new string
		wantOld        []span
		wantNew        []span
	}{
		{"one word", "the quick fox", "the slow fox",
			[]span{{"the ", false}, {"quick", true}, {" fox", false}},
			[]span{{"the ", false}, {"slow", true}, {" fox", false}}},
		{"appended", "x := 1", "x := 1 // one",
			[]span{{"x := 1", false}},
			[]span{{"x := 1", false}, {" // one", true}}},
		{"same", "same", "same", []span{{"same", false}}, []span{{"same", false}}},
		{"too long", long, long + "x", []span{{long, false}}, []span{{long + "x", false}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, n := wordDiff(tc.old, tc.new)
			if !reflect.DeepEqual(o, tc.wantOld) || !reflect.DeepEqual(n, tc.wantNew) {
				t.Fatalf("wordDiff(%q, %q) = %v, %v; want %v, %v", tc.old, tc.new, o, n, tc.wantOld, tc.wantNew)
			}
		})
	}
}
