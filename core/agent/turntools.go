package agent

import (
	"pincer/core/permission"
	"pincer/core/provider"
	"pincer/tools"
)

// lookupTool finds the tool called name: the registry's, else this turn's own.
func (t *turn) lookupTool(name string) (tools.Tool, bool) {
	if t.a.agentTool != nil && (name == AgentToolName || name == TaskToolName) {
		return t.a.agentTool, true // the agent's own, never shadowed; Task is its older name
	}
	for _, tl := range t.teamTools() { // the agent's own too (team_tools.go)
		if tl.Spec().Name == name {
			return tl, true
		}
	}
	if tl, ok := t.a.cfg.Tools.Get(name); ok {
		return tl, true
	}
	for _, tl := range t.extra.Tools {
		if tl.Spec().Name == name {
			return tl, true
		}
	}
	return nil, false
}

// toolNames lists the tools offered in this iteration's model request (the
// offer's specs with the turn's own tools, withTurnTools), for the unknown
// tool error: a tool the request did not carry (ToolSearch with no deferred
// tool, a deferred tool not loaded yet) is not named as available.
func (t *turn) toolNames() []string {
	specs := t.withTurnTools(t.offer().specs)
	names := make([]string, 0, len(specs))
	for _, s := range specs {
		names = append(names, s.Name)
	}
	return names
}

// withTurnTools appends the Agent tool (when the agent has a Spawner) and this turn's own tools (TurnInput.Tools; in plan mode
// only those that do not write) to specs, the registry's offer. They are never
// deferred: the turn that has them is the turn they are for.
func (t *turn) withTurnTools(specs []provider.ToolSpec) []provider.ToolSpec {
	if t.a.agentTool != nil {
		s := t.a.agentTool.Spec()
		specs = append(specs, provider.ToolSpec{Name: s.Name, Description: s.Description, Schema: s.Schema})
	}
	for _, tl := range t.teamTools() {
		s := tl.Spec()
		specs = append(specs, provider.ToolSpec{Name: s.Name, Description: s.Description, Schema: s.Schema})
	}
	for _, tl := range t.extra.Tools {
		if _, dup := t.a.cfg.Tools.Get(tl.Spec().Name); dup || t.a.Mode() == permission.ModePlan && permission.HiddenInPlan(string(tl.Spec().Kind)) {
			continue
		}
		s := tl.Spec()
		specs = append(specs, provider.ToolSpec{Name: s.Name, Description: s.Description, Schema: s.Schema})
	}
	return specs
}
