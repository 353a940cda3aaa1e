package plugin

import "testing"

func TestValidName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"formatter", true},
		{"code-review", true},
		{"my_tools2", true},
		{"A1", true},
		{"", false},
		{"../evil", false},
		{"..", false},
		{"a/b", false},
		{"a.b", false},
		{"a__b", false},
		{"trailing_", false},
		{"-lead", false},
		{"_lead", false},
		{"white space", false},
		{"x\x00y", false},
		{"αβ", false},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false}, // 65
	} {
		if err := ValidName(tc.name); (err == nil) != tc.ok {
			t.Errorf("ValidName(%q) = %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}
