package app

import (
	"os"
	"testing"

	"pincer/core/config"
)

// Agent teams are opt-in: CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS=1 or the
// user's [agents] teams = true; a project file cannot turn them on.
func TestTeamsEnabled(t *testing.T) {
	for _, c := range []struct {
		name, user, project, env string
		want                     bool
	}{
		{name: "off by default"},
		{name: "env 1", env: "1", want: true},
		{name: "env other", env: "true"},
		{name: "user config", user: "[agents]\nteams = true\n", want: true},
		{name: "project config", project: "[agents]\nteams = true\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ws := writeConfigs(t, c.user, c.project)
			src := config.Read(config.PathsFrom(os.Getenv), ws)
			var report configReport
			got := teamsEnabled(src, func(k string) string {
				if k == EnvAgentTeams {
					return c.env
				}
				return ""
			}, &report)
			if got != c.want {
				t.Errorf("teams %v, want %v (warnings %v)", got, c.want, report.warnings)
			}
		})
	}
}
