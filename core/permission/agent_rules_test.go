package permission

import "testing"

// Rules on the Agent tool: Agent and Task (its older name) deny every call,
// Agent(TYPE) and Task(TYPE) the calls of that subagent type (any case),
// and a rule never reaches another tool.
func TestAgentRules(t *testing.T) {
	call := func(typ string) Input { return Input{Tool: "Agent", Kind: KindRead, AgentType: typ, Workspace: "/w"} }
	cases := []struct {
		name string
		deny string
		in   Input
		want Behavior
	}{
		{"no rule", "", call("Explore"), Allow},
		{"Agent", "Agent", call("Explore"), Deny},
		{"Task", "Task", call("general-purpose"), Deny},
		{"Agent(Explore)", "Agent(Explore)", call("Explore"), Deny},
		{"Agent(explore) any case", "Agent(explore)", call("Explore"), Deny},
		{"Task(Plan)", "Task(Plan)", call("Plan"), Deny},
		{"another type", "Agent(Explore)", call("general-purpose"), Allow},
		{"not another tool", "Task", Input{Tool: "Read", Kind: KindRead, Workspace: "/w"}, Allow},
		{"no type given", "Agent(Explore)", call(""), Allow},
	}
	for _, c := range cases {
		rules := RuleSet{}
		if c.deny != "" {
			r, err := ParseRule(c.deny)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			rules = rules.Add(Deny, r)
		}
		if got := Evaluate(ModeDefault, rules, c.in); got.Behavior != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, got.Behavior, got.Reason, c.want)
		}
	}
}
