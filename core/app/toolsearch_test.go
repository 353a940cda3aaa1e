package app

import (
	"os"
	"strings"
	"testing"

	"pincer/core/config"
	"pincer/tools"
)

// TestToolSearchPolicy: ENABLE_TOOL_SEARCH beats [tools] search, the
// project's file beats the user's, nothing set is auto, and a value that does
// not parse is one warning naming where it is, with auto in force.
func TestToolSearchPolicy(t *testing.T) {
	cases := []struct {
		name, user, project, env string
		want                     tools.SearchPolicy
		warning                  string
	}{
		{name: "nothing set", want: tools.SearchPolicy{}},
		{name: "user", user: "[tools]\nsearch = \"auto:5\"\n", want: tools.SearchPolicy{Percent: 5}},
		{name: "project over user", user: "[tools]\nsearch = \"never\"\n", project: "[tools]\nsearch = \"always\"\n",
			want: tools.SearchPolicy{Mode: tools.SearchAlways}},
		{name: "env over files", user: "[tools]\nsearch = \"never\"\n", env: "true", want: tools.SearchPolicy{Mode: tools.SearchAlways}},
		{name: "env false", env: "false", want: tools.SearchPolicy{Mode: tools.SearchNever}},
		{name: "env auto:N", env: "auto:20", want: tools.SearchPolicy{Percent: 20}},
		{name: "bad env", user: "[tools]\nsearch = \"never\"\n", env: "maybe", warning: "ENABLE_TOOL_SEARCH: tool search \"maybe\""},
		{name: "bad file value", user: "\n[tools]\nsearch = \"auto:0\"\n", warning: "config.toml:3: [tools] tool search \"auto:0\""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws := writeConfigs(t, c.user, c.project)
			src := config.Read(config.PathsFrom(os.Getenv), ws)
			var report configReport
			got := toolSearchPolicy(src, func(k string) string {
				if k == EnvToolSearch {
					return c.env
				}
				return ""
			}, &report)
			if got != c.want {
				t.Errorf("policy %+v, want %+v", got, c.want)
			}
			if c.warning == "" && len(report.warnings)+len(report.fatal) != 0 {
				t.Errorf("problems %v %v", report.warnings, report.fatal)
			}
			if c.warning != "" && (len(report.warnings) != 1 || !strings.Contains(report.warnings[0], c.warning)) {
				t.Errorf("warnings %q, want one with %q", report.warnings, c.warning)
			}
		})
	}
}
