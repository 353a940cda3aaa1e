package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/config"
	"pincer/core/permission"
	"pincer/core/subagent"
	"pincer/tools"
)

// TestWorkbenchDeniesEveryToolOnBrokenConfig: the workbench's way of failing
// closed — deny rules for every tool, naming the problem — holds in every mode
// for every tool, read-only ones included.
func TestWorkbenchDeniesEveryToolOnBrokenConfig(t *testing.T) {
	ws := t.TempDir()
	path := filepath.Join(ws, ".pincer", "config.toml")
	_ = os.MkdirAll(filepath.Dir(path), 0o755)
	_ = os.WriteFile(path, []byte("[permissions]\ndeny = [\"Bash(rm:*)\"\n"), 0o644)
	t.Setenv("PINCER_HOME", t.TempDir())
	src := config.Read(config.PathsFrom(os.Getenv), ws)
	var report configReport
	report.add(src.Errors())
	rules, err := rulesFrom(src, []string{"Bash Read Write Edit Grep Glob"}, nil, &report)
	if err != nil {
		t.Fatal(err)
	}
	if report.failure() == nil {
		t.Fatal("a broken file is not a failure")
	}
	registry := tools.Default()
	rules = denyAll(rules, registry, report.fatal)
	inputs := map[string]permission.Input{
		"Bash":  {Tool: "Bash", Kind: "execute", Command: "ls", Summary: "ls"},
		"Read":  {Tool: "Read", Kind: "read", Paths: []string{filepath.Join(ws, "a.txt")}},
		"Write": {Tool: "Write", Kind: "edit", Paths: []string{filepath.Join(ws, "a.txt")}},
		"Grep":  {Tool: "Grep", Kind: "read", Paths: []string{ws}},
		// the agent's own tools, outside the registry: no subagent or team starts either
		"Agent":       {Tool: "Agent", Kind: "read"},
		"TeamCreate":  {Tool: "TeamCreate", Kind: "read"},
		"SendMessage": {Tool: "SendMessage", Kind: "read"},
	}
	for _, mode := range []permission.Mode{permission.ModeDefault, permission.ModeAcceptEdits, permission.ModeBypass, permission.ModePlan} {
		for name, in := range inputs {
			in.Workspace, in.Cwd = ws, ws
			d := permission.Evaluate(mode, rules, in)
			if d.Behavior != permission.Deny {
				t.Errorf("%s %s: %s (%s), want deny", mode, name, d.Behavior, d.Reason)
				continue
			}
			// the reason the model and the person read names the file and line, not a rule no file wrote
			if !strings.Contains(d.Reason, "config.toml:2:21") || strings.Contains(d.Reason, "by the rule") {
				t.Errorf("%s %s: the reason does not name the problem: %q / %q", mode, name, d.Reason, d.By)
			}
		}
	}
	for _, name := range append(registry.Names(), subagent.NestingTools...) { // the agent's own tools by name too
		found := false
		for _, r := range rules.Deny {
			found = found || r.Tool == name
		}
		if !found {
			t.Errorf("no deny rule for %s", name)
		}
	}
}

// TestConfigFailureMessage: one FILE:LINE line per problem, each place once.
func TestConfigFailureMessage(t *testing.T) {
	r := configReport{fatal: []string{"/a/config.toml:3:9: toml: bad", "/a/config.toml:3: [sandbox] not applied: bad", "/b.json:1: x"}}
	msg := r.failure().Error()
	if strings.Count(msg, "/a/config.toml:3") != 1 || !strings.Contains(msg, "\npincer: /b.json:1: x") {
		t.Errorf("message:\n%s", msg)
	}
}
