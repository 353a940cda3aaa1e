package permission

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseRule(t *testing.T) {
	cases := []struct {
		in        string
		tool      string
		spec      string
		canonical string
	}{
		{"Bash", "Bash", "", "Bash"},
		{"  Read  ", "Read", "", "Read"},
		{"Bash()", "Bash", "", "Bash"},
		{"Bash(*)", "Bash", "", "Bash"},
		{"Bash(npm run test:*)", "Bash", "npm run test:*", "Bash(npm run test:*)"},
		{"Bash(git * main)", "Bash", "git * main", "Bash(git * main)"},
		{"Bash(echo (hi))", "Bash", "echo (hi)", "Bash(echo (hi))"},
		{`Bash(echo \*)`, "Bash", `echo \*`, `Bash(echo \*)`},
		{"Read(./secrets/**)", "Read", "./secrets/**", "Read(./secrets/**)"},
		{"Read(*)", "Read", "*", "Read(*)"}, // only Bash(*) is the bare tool
		{"Edit(src/**/*.ts)", "Edit", "src/**/*.ts", "Edit(src/**/*.ts)"},
		{"Read(//etc/passwd)", "Read", "//etc/passwd", "Read(//etc/passwd)"},
		{"Read(~/.ssh/**)", "Read", "~/.ssh/**", "Read(~/.ssh/**)"},
		{"WebFetch(domain:example.com)", "WebFetch", "domain:example.com", "WebFetch(domain:example.com)"},
		{"WebFetch(domain:*.example.com)", "WebFetch", "domain:*.example.com", "WebFetch(domain:*.example.com)"},
		{"mcp__github__create_issue", "mcp__github__create_issue", "", "mcp__github__create_issue"},
		{"mcp__github", "mcp__github", "", "mcp__github"},
		{"mcp__my-server__*", "mcp__my-server__*", "", "mcp__my-server__*"},
	}
	for _, c := range cases {
		r, err := ParseRule(c.in)
		if err != nil {
			t.Errorf("ParseRule(%q): %v", c.in, err)
			continue
		}
		if r.Tool != c.tool || r.Specifier != c.spec || r.String() != c.canonical {
			t.Errorf("ParseRule(%q) = %+v (%s), want %s / %q / %s", c.in, r, r, c.tool, c.spec, c.canonical)
		}
		again, err := ParseRule(r.String())
		if err != nil || again != r {
			t.Errorf("round trip of %q: %+v, %v", c.in, again, err)
		}
	}
}

func TestParseRuleInvalid(t *testing.T) {
	for _, in := range []string{
		"", "  ", "(ls)", "Bash(ls", "Bash(ls) x", "1Bash", "Ba sh", "Bash!(x)",
		"WebFetch(example.com)", "WebFetch(domain:)", "WebFetch(domain:a.com/path)",
		"mcp__github__x(arg)", "Read([)", `Bash(echo \)`, "Bash__*", "__*",
	} {
		if r, err := ParseRule(in); err == nil {
			t.Errorf("ParseRule(%q) = %+v, want an error", in, r)
		}
	}
}

func TestMergeKeepsOrderAndSources(t *testing.T) {
	a := RuleSet{Allow: []Rule{{Tool: "Read", Source: "a"}}, Deny: []Rule{{Tool: "Bash", Source: "a"}}}
	b := RuleSet{Allow: []Rule{{Tool: "Edit", Source: "b"}}, Ask: []Rule{{Tool: "WebFetch", Source: "b"}}}
	m := a.Merge(b)
	if fmt.Sprint(m.Allow) != "[Read Edit]" || m.Allow[0].Source != "a" || m.Allow[1].Source != "b" ||
		len(m.Ask) != 1 || len(m.Deny) != 1 || m.Len() != 4 {
		t.Fatalf("Merge = %+v", m)
	}
	m.Allow[0].Tool = "changed"
	if a.Allow[0].Tool != "Read" {
		t.Fatal("Merge shares storage with its receiver")
	}
}

func TestParseRuleList(t *testing.T) {
	rules, err := ParseRuleList("Bash(git log:*) Read,Edit, Bash(npm run test:*),,mcp__github", "--allowed-tools")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rules {
		if r.Source != "--allowed-tools" {
			t.Errorf("%s has source %q", r, r.Source)
		}
		got = append(got, r.String())
	}
	if want := "[Bash(git log:*) Read Edit Bash(npm run test:*) mcp__github]"; fmt.Sprint(got) != want {
		t.Fatalf("rules = %v, want %s", got, want)
	}
	rules, err = ParseRuleList(`Bash(echo \() Read WebFetch(x)`, "--disallowed-tools")
	if err == nil || !strings.Contains(err.Error(), "--disallowed-tools") || !strings.Contains(err.Error(), "WebFetch") {
		t.Fatalf("error = %v, want one naming the flag and the bad rule", err)
	}
	if len(rules) != 2 || rules[0].Specifier != `echo \(` || rules[1].Tool != "Read" {
		t.Fatalf("good rules = %+v", rules)
	}
}

func TestSessionRuleStrings(t *testing.T) {
	rs := RuleSet{
		Allow: []Rule{{Tool: "Bash", Specifier: "npm test"}},
		Ask:   []Rule{{Tool: "WebFetch"}},
		Deny:  []Rule{{Tool: "Read", Specifier: "./secrets/**"}},
	}
	ss := SessionRuleStrings(rs)
	if want := "[allow:Bash(npm test) ask:WebFetch deny:Read(./secrets/**)]"; fmt.Sprint(ss) != want {
		t.Fatalf("strings = %v, want %s", ss, want)
	}
	back, errs := ParseSessionRules(append(ss, "maybe:Bash", "allow:Bash("))
	if len(errs) != 2 {
		t.Fatalf("errs = %v, want 2", errs)
	}
	if fmt.Sprint(SessionRuleStrings(back)) != fmt.Sprint(ss) || back.Allow[0].Source != SessionSource {
		t.Fatalf("round trip = %+v", back)
	}
}
