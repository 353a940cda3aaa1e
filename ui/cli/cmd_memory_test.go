package cli

import "testing"

// TestMemoryArgs: which `pincer memory` argument lists are usage errors,
// decided before the store is opened.
func TestMemoryArgs(t *testing.T) {
	for _, tc := range []struct {
		args []string
		f    memoryFlags
		ok   bool
	}{
		{[]string{"list"}, memoryFlags{}, true},
		{[]string{"list"}, memoryFlags{kind: "skill", pending: true}, true},
		{[]string{"list"}, memoryFlags{kind: "file"}, false},
		{[]string{"list", "x"}, memoryFlags{}, false},
		{[]string{"show", "mem-1"}, memoryFlags{}, true},
		{[]string{"show"}, memoryFlags{}, false},
		{[]string{"approve", "mem-1"}, memoryFlags{edit: "f.md"}, true},
		{[]string{"approve", "mem-1", "mem-2"}, memoryFlags{}, false},
		{[]string{"reject", "mem-1"}, memoryFlags{reason: "no"}, true},
		{[]string{"add"}, memoryFlags{}, false},
		{[]string{"add", "we", "use", "tabs"}, memoryFlags{}, true},
		{[]string{"forget", "we use tabs"}, memoryFlags{scope: "user"}, true},
		{[]string{"forget", "x"}, memoryFlags{scope: "../x"}, false},
		{[]string{"files"}, memoryFlags{}, true},
		{[]string{"repair", "now"}, memoryFlags{}, false},
		{[]string{"decide", "mem-1"}, memoryFlags{}, false},
	} {
		err := checkMemoryArgs(tc.args, tc.f)
		if (err == nil) != tc.ok {
			t.Errorf("%q %+v: %v, want ok %v", tc.args, tc.f, err, tc.ok)
		}
	}
}
