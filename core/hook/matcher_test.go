package hook

import "testing"

func TestParseMatcher(t *testing.T) {
	tests := []struct {
		matcher string
		match   []string
		miss    []string
	}{
		{"", []string{"Bash", "Edit", "anything", ""}, nil},
		{"*", []string{"Bash", "mcp__x__y"}, nil},
		{"  ", []string{"Bash"}, nil},
		{"Bash", []string{"Bash"}, []string{"bash", "BashOutput", "MyBash"}},
		{"Edit|Write", []string{"Edit", "Write"}, []string{"MultiEdit", "Edi", "Edit|Write", "Read"}},
		{"Edit | Write", []string{"Edit", "Write"}, []string{"Edit ", " Write"}},
		{"mcp__memory__create", []string{"mcp__memory__create"}, []string{"mcp__memory__create_x"}},
		// Regular expressions match the whole name.
		{"Notebook.*", []string{"Notebook", "NotebookEdit"}, []string{"MyNotebookEdit"}},
		{"Edit.*", []string{"Edit", "EditFile"}, []string{"MultiEdit"}},
		{".*Edit.*", []string{"MultiEdit", "Edit"}, []string{"Write"}},
		{"mcp__github__.*", []string{"mcp__github__create_issue"}, []string{"mcp__gitlab__x"}},
		{"(Edit|Write)", []string{"Edit", "Write"}, []string{"MultiEdit"}},
		{"Edit|Write.*", []string{"Edit", "WriteFile"}, []string{"EditX"}},
		{"startup|resume", []string{"startup", "resume"}, []string{"clear", "compact"}},
		{"my-server__.*", []string{"my-server__x"}, []string{"other"}},
	}
	for _, tt := range tests {
		m, err := ParseMatcher(tt.matcher)
		if err != nil {
			t.Errorf("ParseMatcher(%q): %v", tt.matcher, err)
			continue
		}
		if m.String() != tt.matcher {
			t.Errorf("String() = %q, want %q", m.String(), tt.matcher)
		}
		for _, name := range tt.match {
			if !m.Match(name) {
				t.Errorf("matcher %q does not match %q", tt.matcher, name)
			}
		}
		for _, name := range tt.miss {
			if m.Match(name) {
				t.Errorf("matcher %q matches %q", tt.matcher, name)
			}
		}
	}
}

func TestParseMatcherErrors(t *testing.T) {
	for _, s := range []string{"(Edit", "Edit[", "a**", "x(?P<>y)"} {
		if _, err := ParseMatcher(s); err == nil {
			t.Errorf("ParseMatcher(%q) = nil error", s)
		}
	}
}

func TestMatcherAll(t *testing.T) {
	for s, want := range map[string]bool{"": true, "*": true, "Bash": false, ".*": false} {
		m, err := ParseMatcher(s)
		if err != nil {
			t.Fatal(err)
		}
		if m.All() != want {
			t.Errorf("ParseMatcher(%q).All() = %v", s, !want)
		}
	}
	var zero Matcher
	if !zero.Match("x") {
		t.Error("zero Matcher does not match")
	}
}
