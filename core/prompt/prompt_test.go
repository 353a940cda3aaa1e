package prompt

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// noGit is an Env.Git that says "not a repository" without running git.
var noGit = &GitInfo{}

func names(segs []Segment) []string {
	var out []string
	for _, s := range segs {
		out = append(out, s.Name)
	}
	return out
}

func TestSegmentOrder(t *testing.T) {
	segs := Segments(Env{Cwd: t.TempDir(), Git: noGit, Instructions: &Instructions{}})
	want := []string{SegIdentity, SegTools, SegCoding, SegSafety, SegOutput, SegEnvironment, SegGit, SegInstructions, SegDiagnostics}
	if got := names(segs); !slices.Equal(got, want) {
		t.Fatalf("segments = %v, want %v", got, want)
	}
	for i, s := range segs {
		if wantStatic := i < 5; s.Static != wantStatic {
			t.Errorf("%s: Static = %v, want %v", s.Name, s.Static, wantStatic)
		}
	}
	extra := Segment{Name: "mcp", Text: "# MCP\nserver x"}
	segs = Segments(Env{Cwd: t.TempDir(), Git: noGit, Instructions: &Instructions{}, Extra: []Segment{extra}})
	if last := segs[len(segs)-1]; last != extra {
		t.Errorf("extra segment not last: %+v", last)
	}
}

// TestStaticStable builds the prompt twice with different dates, directories,
// models, git state and instructions: everything before the marker must be
// byte-identical.
func TestStaticStable(t *testing.T) {
	a := Build(Env{Cwd: t.TempDir(), Date: time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC), ModelName: "a/x", Git: noGit, Instructions: &Instructions{}})
	b := Build(Env{Cwd: t.TempDir(), Date: time.Date(2025, 6, 7, 0, 0, 0, 0, time.UTC), ModelName: "b/y",
		Git: &GitInfo{IsRepo: true, Root: "/r", Branch: "main"}, Instructions: &Instructions{Text: "Contents of x:\n\nhi"}, Diagnostics: "a.go:1: oops"})
	sa, da, okA := Split(a)
	sb, db, okB := Split(b)
	if !okA || !okB {
		t.Fatal("marker missing")
	}
	if sa != sb {
		t.Errorf("static parts differ:\n%s\n----\n%s", sa, sb)
	}
	if da == db {
		t.Errorf("dynamic parts should differ")
	}
	// The same tool set in another order gives the same static text.
	x := Render(StaticSegments([]string{"Read", "Bash", "TodoWrite"}))
	y := Render(StaticSegments([]string{"TodoWrite", "Read", "Bash"}))
	if x != y {
		t.Error("static text depends on tool order")
	}
}

func TestRender(t *testing.T) {
	segs := []Segment{
		{Name: "d1", Text: "dyn one"},
		{Name: "s1", Text: "static one", Static: true},
		{Name: "empty", Text: "  \n", Static: true},
		{Name: "s2", Text: "static two\n", Static: true},
		{Name: "d2", Text: "dyn two"},
	}
	want := "static one\n\nstatic two\n\n" + DynamicMarker + "\n\ndyn one\n\ndyn two\n"
	if got := Render(segs); got != want {
		t.Fatalf("Render = %q, want %q", got, want)
	}
	if got := Render(segs[1:3]); got != "static one\n\n"+DynamicMarker+"\n" {
		t.Errorf("Render without dynamic = %q", got)
	}
}

func TestSplit(t *testing.T) {
	tests := []struct {
		name, in, static, dynamic string
		ok                        bool
	}{
		{"both", "a\n\n" + DynamicMarker + "\n\nb\n", "a", "b\n", true},
		{"no dynamic", "a\n\n" + DynamicMarker + "\n", "a", "", true},
		{"trimmed end", "a\n" + DynamicMarker, "a", "", true},
		{"no marker", "a\nb", "a\nb", "", false},
		{"marker inside a line is not a cut", "a " + DynamicMarker + " b", "a " + DynamicMarker + " b", "", false},
		{"first marker wins", "a\n" + DynamicMarker + "\nb\n" + DynamicMarker + "\nc", "a", "b\n" + DynamicMarker + "\nc", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, d, ok := Split(tt.in)
			if s != tt.static || d != tt.dynamic || ok != tt.ok {
				t.Errorf("Split = %q, %q, %v; want %q, %q, %v", s, d, ok, tt.static, tt.dynamic, tt.ok)
			}
		})
	}
}

func TestDynamicContent(t *testing.T) {
	cwd := t.TempDir()
	out := Build(Env{
		Cwd: cwd, Date: time.Date(2025, 3, 4, 23, 0, 0, 0, time.UTC), ModelName: "openai/gpt-x",
		Git:          &GitInfo{IsRepo: true, Root: cwd, Branch: "dev", Upstream: "origin/dev [ahead 2]", Status: []string{" M a.go"}, Commits: []string{"abc123 first"}},
		Instructions: &Instructions{Text: "Contents of /p/AGENTS.md (project instructions):\n\nuse tabs"},
		Diagnostics:  "a.go:3:1: undefined: x",
	})
	_, dyn, _ := Split(out)
	for _, want := range []string{
		"Working directory (workspace root): " + cwd,
		"Date: 2025-03-04 (Tuesday)",
		"Model: openai/gpt-x",
		"Git repository: yes (root " + cwd + ")",
		"Branch: dev (upstream origin/dev [ahead 2])",
		" M a.go",
		"abc123 first",
		"# Project instructions",
		"use tabs",
		"# Diagnostics\na.go:3:1: undefined: x",
	} {
		if !strings.Contains(dyn, want) {
			t.Errorf("dynamic part lacks %q:\n%s", want, dyn)
		}
	}
	order := []string{"# Environment", "# Git", "# Project instructions", "# Diagnostics"}
	last := -1
	for _, h := range order {
		i := strings.Index(dyn, h)
		if i <= last {
			t.Errorf("%s out of order", h)
		}
		last = i
	}

	plain := Build(Env{Cwd: cwd, Git: noGit, Instructions: &Instructions{}})
	_, dyn, _ = Split(plain)
	for _, absent := range []string{"# Git", "# Project instructions", "# Diagnostics", "Model:"} {
		if strings.Contains(dyn, absent) {
			t.Errorf("empty env still renders %q", absent)
		}
	}
	if !strings.Contains(dyn, "Git repository: no") {
		t.Errorf("no-repo line missing:\n%s", dyn)
	}
}

// TestSegmentsLoadsInstructions checks that Segments reads the instruction files
// itself when Env.Instructions is nil.
func TestSegmentsLoadsInstructions(t *testing.T) {
	cwd := t.TempDir()
	write(t, cwd, "AGENTS.md", "always run go vet")
	out := Build(Env{Cwd: cwd, Git: noGit})
	if !strings.Contains(out, "always run go vet") {
		t.Errorf("instructions not loaded:\n%s", out)
	}
}

func TestToolGuidance(t *testing.T) {
	tests := []struct {
		tools       []string
		has, hasNot []string
	}{
		{nil, []string{"Read to read a file", "Edit replaces an exact string", "Use Bash for builds"}, []string{"TodoWrite"}},
		{[]string{"Bash", "Glob", "Grep", "Read", "Edit", "Write", "TodoWrite"}, []string{"keep a plan with TodoWrite"}, nil},
		{[]string{"Read", "Grep"}, []string{"do not repeat a call"}, []string{"Read to read a file", "Use Bash", "Edit replaces"}},
	}
	for _, tt := range tests {
		text := toolsText(tt.tools)
		for _, s := range tt.has {
			if !strings.Contains(text, s) {
				t.Errorf("tools %v: guidance lacks %q", tt.tools, s)
			}
		}
		for _, s := range tt.hasNot {
			if strings.Contains(text, s) {
				t.Errorf("tools %v: guidance has %q", tt.tools, s)
			}
		}
	}
}

func TestBuildDefaults(t *testing.T) {
	// A zero Env still yields a full prompt (cwd from the process, date today).
	before := time.Now().Format("2006-01-02")
	out := Build(Env{Git: noGit, Instructions: &Instructions{}})
	after := time.Now().Format("2006-01-02")
	if !strings.Contains(out, "You are pincer") || !(strings.Contains(out, "Date: "+before) || strings.Contains(out, "Date: "+after)) {
		t.Errorf("default build incomplete:\n%s", out)
	}
}
