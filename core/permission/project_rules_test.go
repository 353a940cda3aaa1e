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

// TestProjectOnly: a Bash command allowed by a repository's rule and by
// nothing of the person's — no rule of theirs, no mode that allows it — is
// marked ProjectOnly (its reads get confined); the person's own rule, a mode
// that allows it anyway, or the read-only set leave it unmarked.
func TestProjectOnly(t *testing.T) {
	cases := []struct {
		name    string
		mode    Mode
		project []string
		user    []string
		cmd     string
		want    bool
	}{
		{"project rule alone", ModeDefault, []string{"Bash(npm test:*)"}, nil, "npm test", true},
		{"xargs from stdin", ModeDefault, []string{"Bash(xargs:*)"}, nil, "echo ../x | xargs cat", true},
		{"project rule, auto mode", ModeAuto, []string{"Bash(make:*)"}, nil, "make", true},
		{"one part by the person, one by the project", ModeDefault, []string{"Bash(make:*)"}, []string{"Bash(git status)"}, "git status && make", true},
		{"the person's rule too", ModeDefault, []string{"Bash(npm test:*)"}, []string{"Bash(npm test:*)"}, "npm test", false},
		{"bypassPermissions allows it anyway", ModeBypass, []string{"Bash(npm test:*)"}, nil, "npm test", false},
		{"acceptEdits allows a file command anyway", ModeAcceptEdits, []string{"Bash(cp:*)"}, nil, "cp a.go b.go", false},
		{"read-only inside needs no rule", ModeDefault, []string{"Bash(cat:*)"}, nil, "cat a.go", false},
		{"no project rule", ModeDefault, nil, []string{"Bash(npm test:*)"}, "npm test", false},
	}
	for _, c := range cases {
		var rs RuleSet
		for i, list := range [][]string{c.project, c.user} {
			for _, s := range list {
				r, err := ParseRule(s)
				if err != nil {
					t.Fatal(err)
				}
				r.Project, r.Source = i == 0, "test"
				rs = rs.Add(Allow, r)
			}
		}
		d := Evaluate(c.mode, rs, bash(c.cmd))
		if d.Behavior != Allow {
			t.Errorf("%s: %s (%s), want allow", c.name, d.Behavior, d.Reason)
		}
		if d.ProjectOnly != c.want {
			t.Errorf("%s: ProjectOnly %v, want %v (%s)", c.name, d.ProjectOnly, c.want, d.Reason)
		}
	}
}
