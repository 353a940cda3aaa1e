package subagent

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"pincer/core/config"
	"pincer/core/permission"
)

func TestParse(t *testing.T) {
	src := `---
name: code-reviewer
description: >
  Reviews code for quality.
  Use after a change.
tools: Read, Grep, Glob, mcp__github
disallowedTools:
  - Bash
model: sonnet
permissionMode: plan
maxTurns: 7
isolation: worktree
color: blue
---
You review code.
`
	d, err := Parse("/p/.claude/agents/code-reviewer.md", []byte(src), OriginProject)
	if err != nil {
		t.Fatal(err)
	}
	want := Definition{Name: "code-reviewer", Description: "Reviews code for quality. Use after a change.",
		Tools: []string{"Read", "Grep", "Glob", "mcp__github"}, DisallowedTools: []string{"Bash"}, Model: "sonnet",
		PermissionMode: permission.ModePlan, MaxTurns: 7, Isolation: "worktree", Prompt: "You review code.",
		Origin: OriginProject, Path: "/p/.claude/agents/code-reviewer.md"}
	if !reflect.DeepEqual(d, want) {
		t.Fatalf("got  %+v\nwant %+v", d, want)
	}
}

func TestParseDefaults(t *testing.T) {
	d, err := Parse("/a/helper.md", []byte("---\ndescription: Helps.\nmodel: inherit\n---\nHelp.\n"), OriginUser)
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "helper" || d.Tools != nil || d.Model != "" || d.PermissionMode != "" || d.MaxTurns != 0 {
		t.Fatalf("%+v", d)
	}
	d, err = Parse("/a/none.md", []byte("---\ndescription: No tools.\ntools: []\n---\nThink.\n"), OriginUser)
	if err != nil || d.Tools == nil || len(d.Tools) != 0 {
		t.Fatalf("tools: [] = %#v, %v; want an empty, non-nil list", d.Tools, err)
	}
}

// TestParseRefuses: each file fails closed with a FILE:LINE error on the
// line at fault.
func TestParseRefuses(t *testing.T) {
	cases := []struct {
		name, src string
		line      int
		msg       string
	}{
		{"bad yaml", "---\nname: x\ntools: [unclosed\n---\nbody\n", -1, ""},
		{"unclosed block", "---\nname: x\ndescription: d\nbody\n", 1, ""},
		{"no description", "---\nname: x\n---\nbody\n", 1, "description is required"},
		{"no body", "---\nname: x\ndescription: d\n---\n\n", 5, "no body"},
		{"bad name", "---\nname: ../x\ndescription: d\n---\nbody\n", 2, "name"},
		{"namespaced name", "---\nname: plug:x\ndescription: d\n---\nbody\n", 2, "namespace"},
		{"rule in tools", "---\nname: x\ndescription: d\ntools: Bash(git status:*), Read\n---\nbody\n", 4, "not a tool name"},
		{"rule in disallowed", "---\nname: x\ndescription: d\ndisallowedTools: [\"Bash(rm:*)\"]\n---\nbody\n", 4, "not a tool name"},
		{"tools a mapping", "---\nname: x\ndescription: d\ntools: {a: b}\n---\nbody\n", 4, ""},
		{"unknown mode", "---\nname: x\ndescription: d\npermissionMode: yolo\n---\nbody\n", 4, "unknown permission mode"},
		{"negative turns", "---\nname: x\ndescription: d\nmaxTurns: -1\n---\nbody\n", 4, "maxTurns"},
		{"huge turns", "---\nname: x\ndescription: d\nmaxTurns: 100000\n---\nbody\n", 4, "maxTurns"},
		{"turns not a number", "---\nname: x\ndescription: d\nmaxTurns: many\n---\nbody\n", 4, ""},
		{"other isolation", "---\nname: x\ndescription: d\nisolation: container\n---\nbody\n", 4, "isolation"},
		{"model with spaces", "---\nname: x\ndescription: d\nmodel: a b\n---\nbody\n", 4, "model"},
		{"duplicate key", "---\nname: x\nname: y\ndescription: d\n---\nbody\n", 3, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("/p/x.md", []byte(c.src), OriginProject)
			var fe *config.FileError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v (%T), want a *config.FileError", err, err)
			}
			if fe.Path != "/p/x.md" || (fe.Line != c.line && (c.line != -1 || fe.Line == 0)) { // -1: yaml.v3's line, any
				t.Errorf("at %s:%d, want /p/x.md:%d (%v)", fe.Path, fe.Line, c.line, err)
			}
			if !strings.Contains(err.Error(), c.msg) {
				t.Errorf("%v: want %q in it", err, c.msg)
			}
		})
	}
}
