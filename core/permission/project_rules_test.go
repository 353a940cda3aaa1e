package permission

import "testing"

// TestProjectRulesStayInside: an allow rule read from a workspace file
// (Rule.Project) allows calls inside the workspace but never a read outside it
// or of a credential path, which asks as with no rule; the person's own rule of
// the same text allows it.
func TestProjectRulesStayInside(t *testing.T) {
	cases := []struct {
		name, rule string
		in         Input
		project    Behavior // the decision with the rule from a project file
		user       Behavior // the same rule from the person's config
	}{
		{"read outside, absolute rule", "Read(//etc/**)", call("Read", KindRead, "/etc/hosts"), Ask, Allow},
		{"read outside, bare rule", "Read", call("Read", KindRead, "/etc/hosts"), Ask, Allow},
		{"grep outside", "Grep", call("Grep", KindRead, "/etc"), Ask, Allow},
		{"glob outside", "Glob", call("Glob", KindRead, "/home/u/src"), Ask, Allow},
		{"credential in home: denied either way", "Read", call("Read", KindRead, "/home/u/.ssh/id_rsa"), Deny, Deny},
		{"read inside", "Read(src/**)", call("Read", KindRead, "/w/src/a.go"), Allow, Allow},
		{"one of two outside", "Read", call("Read", KindRead, "/w/a.go", "/etc/passwd"), Ask, Allow},
		{"cat outside", "Bash(cat:*)", bash("cat /etc/hosts"), Ask, Allow},
		{"bare Bash, cat outside", "Bash", bash("cat /etc/hosts"), Ask, Allow},
		{"exact command outside", "Bash(head -n 1 /etc/hosts)", bash("head -n 1 /etc/hosts"), Ask, Allow},
		{"cat inside", "Bash(cat:*)", bash("cat a.go"), Allow, Allow},
		{"a command that is not a read", "Bash(make:*)", bash("make test"), Allow, Allow},
		{"fetch a domain", "WebFetch(domain:example.com)", Input{Tool: "WebFetch", Kind: KindFetch, URL: "https://example.com/x", Workspace: ws}, Ask, Allow},
		{"fetch loopback", "WebFetch(domain:127.0.0.1)", Input{Tool: "WebFetch", Kind: KindFetch, URL: "http://127.0.0.1:8080/", Workspace: ws}, Ask, Allow},
		{"bare WebFetch", "WebFetch", Input{Tool: "WebFetch", Kind: KindFetch, URL: "https://evil.example/?d=x", Workspace: ws}, Ask, Allow},
		{"search", "WebSearch", Input{Tool: "WebSearch", Kind: KindFetch, Workspace: ws}, Ask, Allow},
	}
	for _, c := range cases {
		r, err := ParseRule(c.rule)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, side := range []struct {
			project bool
			want    Behavior
		}{{true, c.project}, {false, c.user}} {
			r.Project, r.Source = side.project, "test"
			if got := Evaluate(ModeDefault, RuleSet{}.Add(Allow, r), c.in); got.Behavior != side.want {
				t.Errorf("%s (project %v): %s (%s), want %s", c.name, side.project, got.Behavior, got.Reason, side.want)
			}
		}
	}
}

// TestProjectRulesOpenNoNetwork: WebFetch's guard counts only the person's rules:
// a repository's rule names no special host and lifts no network-off.
func TestProjectRulesOpenNoNetwork(t *testing.T) {
	for _, project := range []bool{true, false} {
		var rs RuleSet
		for _, text := range []string{"WebFetch(domain:127.0.0.1)", "WebFetch(domain:169.254.169.254)", "WebSearch"} {
			r, err := ParseRule(text)
			if err != nil {
				t.Fatal(err)
			}
			r.Project, r.Source = project, "test"
			rs = rs.Add(Allow, r)
		}
		want := !project
		if got := rs.NamesHost("127.0.0.1"); got != want {
			t.Errorf("project %v: NamesHost(127.0.0.1) = %v", project, got)
		}
		if got := rs.AllowsURL("http://169.254.169.254/latest/meta-data"); got != want {
			t.Errorf("project %v: AllowsURL(metadata) = %v", project, got)
		}
		if got := rs.AllowsSearch(); got != want {
			t.Errorf("project %v: AllowsSearch = %v", project, got)
		}
	}
}
