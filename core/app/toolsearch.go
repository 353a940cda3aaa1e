package app

import (
	"fmt"

	"pincer/core/config"
	"pincer/tools"
)

// EnvToolSearch is Claude Code's environment variable for the tool-search
// setting; pincer honours it the same way (auto, auto:N, true, false, and
// pincer's always and never).
const EnvToolSearch = "ENABLE_TOOL_SEARCH"

// toolSearchPolicy is the tool-search setting in force (which tools the agent
// defers, core/agent/deferred.go): ENABLE_TOOL_SEARCH when set, else
// `[tools] search` of the config files (the project's over the user's), else
// auto (10% of the context window). A value that does not parse is a warning
// naming where it was written, and auto stands.
func toolSearchPolicy(src *config.Sources, getenv func(string) string, report *configReport) tools.SearchPolicy {
	settings, errs := src.Tools()
	report.add(errs)
	if v := getenv(EnvToolSearch); v != "" {
		p, err := tools.ParseSearchPolicy(v)
		if err != nil {
			report.warnings = append(report.warnings, fmt.Sprintf("%s: %v; auto is used", EnvToolSearch, err))
			return tools.SearchPolicy{}
		}
		return p
	}
	if settings.Search.Text == "" {
		return tools.SearchPolicy{}
	}
	p, err := tools.ParseSearchPolicy(settings.Search.Text)
	if err != nil {
		report.warnings = append(report.warnings, fmt.Sprintf("%s:%d: [tools] %v; auto is used", settings.SearchPath, settings.Search.Line, err))
		return tools.SearchPolicy{}
	}
	return p
}
