package app

import "pincer/core/config"

// EnvAgentTeams turns agent teams on when set to 1, as Claude Code's
// experimental agent teams.
const EnvAgentTeams = "CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS"

// teamsEnabled reports whether the session's agents offer the team tools
// (TeamCreate, SendMessage, TeamDelete): EnvAgentTeams=1, or [agents] teams
// = true in the user's config.toml. Off otherwise; the table's warnings go
// to report.
func teamsEnabled(src *config.Sources, getenv func(string) string, report *configReport) bool {
	settings, errs := src.Agents()
	report.add(errs)
	return getenv(EnvAgentTeams) == "1" || settings.Teams
}
