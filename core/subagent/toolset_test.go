package subagent

import (
	"reflect"
	"testing"
)

func TestToolSet(t *testing.T) {
	parent := []string{"Read", "Glob", "Grep", "Bash", "Edit", "Write", "Agent", "TeamCreate", "SendMessage",
		"mcp__github__create_issue", "mcp__github__list_issues", "mcp__gitlab__x", "Skill", "Remember"}
	cases := []struct {
		name      string
		tools     []string
		not       []string
		want      []string
		wantNotes int
	}{
		{"none listed: all the parent's but nesting", nil, nil,
			[]string{"Read", "Glob", "Grep", "Bash", "Edit", "Write", "mcp__github__create_issue", "mcp__github__list_issues", "mcp__gitlab__x", "Skill"}, 0},
		{"empty list: no tools", []string{}, nil, []string{}, 0},
		{"listed, in the parent's order", []string{"Bash", "Read"}, nil, []string{"Read", "Bash"}, 0},
		{"minus disallowed", nil, []string{"Edit", "Write", "mcp__github"}, []string{"Read", "Glob", "Grep", "Bash", "mcp__gitlab__x", "Skill"}, 0},
		{"a tool the parent lacks is not granted", []string{"Read", "WebFetch"}, nil, []string{"Read"}, 1},
		{"nesting never, even listed", []string{"Agent", "Task", "TeamCreate", "SendMessage", "TeamDelete", "Read"}, nil, []string{"Read"}, 5},
		{"Remember never, even listed", []string{"Remember", "Read"}, nil, []string{"Read"}, 1},
		{"server level", []string{"mcp__github"}, nil, []string{"mcp__github__create_issue", "mcp__github__list_issues"}, 0},
		{"server wildcard", []string{"mcp__github__*"}, []string{"mcp__github__list_issues"}, []string{"mcp__github__create_issue"}, 0},
		{"one MCP tool", []string{"mcp__github__list_issues"}, nil, []string{"mcp__github__list_issues"}, 0},
		{"a server prefix is not another server", []string{"mcp__git"}, nil, []string{}, 1},
		{"no prefix match for plain names", []string{"Rea"}, nil, []string{}, 1},
		{"disallow everything listed", []string{"Read"}, []string{"Read"}, []string{}, 0},
		{"listed twice kept once", []string{"Read", "Read"}, nil, []string{"Read"}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, notes := ToolSet(parent, Definition{Name: "x", Tools: c.tools, DisallowedTools: c.not})
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("tools = %q, want %q", got, c.want)
			}
			if len(notes) != c.wantNotes {
				t.Errorf("notes = %q, want %d", notes, c.wantNotes)
			}
		})
	}
}

func TestToolSetParentWithoutNesting(t *testing.T) {
	// a parent whose registry has no Agent tool at all: the rule still never adds one
	got, _ := ToolSet([]string{"Read"}, Definition{Tools: []string{"Agent"}})
	if len(got) != 0 {
		t.Fatalf("got %q", got)
	}
}
