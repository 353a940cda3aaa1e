package permission

import (
	"strings"
	"testing"
)

// rules builds a RuleSet from "allow:R", "ask:R", "deny:R" strings, each with the
// source "test" (or "src=NAME;" before the rule).
func rules(t testing.TB, specs ...string) RuleSet {
	t.Helper()
	var rs RuleSet
	for _, s := range specs {
		b, text, _ := strings.Cut(s, ":")
		src := "test"
		if rest, ok := strings.CutPrefix(text, "src="); ok {
			src, text, _ = strings.Cut(rest, ";")
		}
		r, err := ParseRule(text)
		if err != nil {
			t.Fatal(err)
		}
		r.Source = src
		rs = rs.Add(Behavior(b), r)
	}
	return rs
}

const ws = "/w"

func call(tool, kind string, paths ...string) Input {
	return Input{Tool: tool, Kind: kind, Paths: paths, Workspace: ws, Cwd: ws, Home: "/home/u"}
}

func TestModeDefaults(t *testing.T) {
	readIn := call("Read", KindRead, "/w/a.go")
	readOut := call("Read", KindRead, "/etc/hosts")
	editIn := call("Edit", KindEdit, "/w/a.go")
	editOut := call("Edit", KindEdit, "/wx/a.go")
	fetch := Input{Tool: "WebFetch", Kind: KindFetch, URL: "https://example.com", Workspace: ws}
	execute := call("Task", KindExecute)
	mcp := call("mcp__github__create_issue", "mcp")
	type row struct {
		in   Input
		want [6]Behavior // default, acceptEdits, plan, bypass, dontAsk, auto
	}
	A, D, Q := Allow, Deny, Ask
	rows := map[string]row{
		"read inside":  {readIn, [6]Behavior{A, A, A, A, A, A}},
		"read outside": {readOut, [6]Behavior{Q, Q, Q, A, D, Q}},
		"edit inside":  {editIn, [6]Behavior{Q, A, D, A, D, Q}},
		"edit outside": {editOut, [6]Behavior{Q, Q, D, A, D, Q}},
		"fetch":        {fetch, [6]Behavior{Q, Q, Q, A, D, Q}},
		"execute":      {execute, [6]Behavior{Q, Q, D, A, D, Q}},
		"mcp":          {mcp, [6]Behavior{Q, Q, D, A, D, Q}},
	}
	for name, r := range rows {
		for i, mode := range Modes {
			d := Evaluate(mode, RuleSet{}, r.in)
			if d.Behavior != r.want[i] {
				t.Errorf("%s in %s = %s (%s), want %s", name, mode, d.Behavior, d.Reason, r.want[i])
			}
			if d.Reason == "" || d.By != "mode:"+string(mode) {
				t.Errorf("%s in %s: reason %q, by %q", name, mode, d.Reason, d.By)
			}
		}
	}
}

func TestEvaluationOrder(t *testing.T) {
	read := call("Read", KindRead, "/w/secrets/key")
	cases := []struct {
		name  string
		rs    RuleSet
		mode  Mode
		in    Input
		want  Behavior
		wantB string
	}{
		{"deny beats allow from any source", rules(t, "allow:src=--allowed-tools;Read", "deny:src=user config;Read(./secrets/**)"),
			ModeDefault, read, Deny, "rule Read(./secrets/**) from user config"},
		{"deny beats bypass", rules(t, "deny:Read(./secrets/**)"), ModeBypass, read, Deny, "rule Read(./secrets/**) from test"},
		{"ask beats allow", rules(t, "allow:Read", "ask:Read(./secrets/**)"), ModeDefault, read, Ask, "rule Read(./secrets/**) from test"},
		{"ask still asks in bypass (Claude Code)", rules(t, "ask:Read(./secrets/**)"), ModeBypass, read, Ask, "rule Read(./secrets/**) from test"},
		{"ask becomes deny in dontAsk", rules(t, "ask:Read(./secrets/**)"), ModeDontAsk, read, Deny, "rule Read(./secrets/**) from test"},
		{"unrelated deny", rules(t, "deny:Read(./public/**)"), ModeDefault, read, Allow, "mode:default"},
		{"allow rule", rules(t, "allow:Edit(/src/**)"), ModeDefault, call("Write", KindEdit, "/w/src/a.go"), Allow, "rule Edit(/src/**) from test"},
		{"allow must cover every path", rules(t, "allow:Edit(/src/**)"), ModeDefault,
			call("Write", KindEdit, "/w/src/a.go", "/w/docs/b.md"), Ask, "mode:default"},
		{"allow covers every path by some rule", rules(t, "allow:Edit(/src/**)", "allow:Edit(/docs/**)"), ModeDefault,
			call("Write", KindEdit, "/w/src/a.go", "/w/docs/b.md"), Allow, "rule Edit(/src/**) from test"},
		{"deny on any path", rules(t, "deny:Edit(/docs/**)"), ModeAcceptEdits,
			call("Write", KindEdit, "/w/src/a.go", "/w/docs/b.md"), Deny, "rule Edit(/docs/**) from test"},
		{"allow in dontAsk", rules(t, "allow:WebFetch(domain:example.com)"), ModeDontAsk,
			Input{Tool: "WebFetch", Kind: KindFetch, URL: "https://example.com/x"}, Allow, "rule WebFetch(domain:example.com) from test"},
		{"other domain in dontAsk", rules(t, "allow:WebFetch(domain:example.com)"), ModeDontAsk,
			Input{Tool: "WebFetch", Kind: KindFetch, URL: "https://docs.example.com/x"}, Deny, "mode:dontAsk"},
		{"plan denies an allowed edit", rules(t, "allow:Edit"), ModePlan, call("Edit", KindEdit, "/w/a.go"), Deny, "mode:plan"},
		{"read outside allowed by rule", rules(t, "allow:Read(//etc/**)"), ModeDefault, call("Read", KindRead, "/etc/hosts"), Allow, "rule Read(//etc/**) from test"},
		{"mcp server rule", rules(t, "allow:mcp__github"), ModeDefault, call("mcp__github__create_issue", "mcp"), Allow, "rule mcp__github from test"},
		{"mcp deny one tool", rules(t, "allow:mcp__github", "deny:mcp__github__delete_repo"), ModeDefault,
			call("mcp__github__delete_repo", "mcp"), Deny, "rule mcp__github__delete_repo from test"},
	}
	for _, c := range cases {
		d := Evaluate(c.mode, c.rs, c.in)
		if d.Behavior != c.want || d.By != c.wantB {
			t.Errorf("%s: %s by %q (%s), want %s by %q", c.name, d.Behavior, d.By, d.Reason, c.want, c.wantB)
		}
		if strings.HasPrefix(d.By, "rule ") && (d.Rule == "" || !strings.Contains(d.By, d.Rule)) {
			t.Errorf("%s: Rule %q does not match By %q", c.name, d.Rule, d.By)
		}
	}
}

func TestHiddenInPlan(t *testing.T) {
	for kind, want := range map[string]bool{KindRead: false, KindExecute: false, KindFetch: false, KindEdit: true, "mcp": true} {
		if got := HiddenInPlan(kind); got != want {
			t.Errorf("HiddenInPlan(%q) = %v, want %v", kind, got, want)
		}
	}
}
