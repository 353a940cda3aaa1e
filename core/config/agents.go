package config

import "strings"

// agentsKeys are the keys of an [agents] table.
var agentsKeys = []string{"teams"}

// AgentsSettings are the [agents] table's settings of subagents. A zero
// field was not set.
type AgentsSettings struct {
	// Teams offers the agent-team tools (TeamCreate, SendMessage,
	// TeamDelete): off unless true, as Claude Code's agent teams are behind
	// CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS.
	Teams bool
}

// Agents reads the [agents] table of the user's config.toml. A value of the
// wrong type, or an unknown key, is a warning and is left out. A project
// file's [agents] is a warning and not applied: a repository cannot turn on
// members that message each other and run turns of their own.
func (s *Sources) Agents() (AgentsSettings, []error) {
	var out AgentsSettings
	var errs []error
	for _, d := range s.docs(ProjectConfig) {
		if _, ok := d.Tree["agents"]; ok {
			errs = append(errs, d.errorAt("agents", true,
				"[agents] in a project file is not applied: a repository cannot turn agent teams on; set it in your own config.toml"))
		}
	}
	for _, d := range s.docs(UserConfig) {
		raw, ok := d.Tree["agents"]
		if !ok {
			continue
		}
		m, ok := raw.(map[string]any)
		if !ok {
			errs = append(errs, d.errorAt("agents", true, "[agents] not applied: agents must be a table, not %s", kindOf(raw)))
			continue
		}
		for _, k := range sortedMapKeys(m) {
			switch k {
			case "teams":
				b, ok := m[k].(bool)
				if !ok {
					errs = append(errs, d.errorAt("agents."+k, true, "[agents] teams: want true or false, not %v", m[k]))
					continue
				}
				out.Teams = b
			default:
				errs = append(errs, d.errorAt("agents."+k, true, "[agents] unknown key %q, ignored (known: %s)", k, strings.Join(agentsKeys, ", ")))
			}
		}
	}
	return out, errs
}
