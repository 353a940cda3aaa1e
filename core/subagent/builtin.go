package subagent

import (
	"embed"
	"slices"
	"strings"

	"pincer/core/permission"
)

//go:embed builtin/*.md
var builtinPrompts embed.FS

// readOnlyTools are the tools of the read-only built-ins: search, read and
// Bash, which their plan mode keeps to the read-only command set.
var readOnlyTools = []string{"Glob", "Grep", "Read", "Bash"}

// Builtins are the built-in agent types, as Claude Code's: general-purpose
// (every tool of the parent's but the nesting ones), Explore (read-only
// search; the caller asks for quick, medium or very thorough) and Plan
// (read-only research that returns a plan). Explore and Plan run in plan
// mode whatever the parent's. Their prompts are pincer's own
// (builtin/*.md). Each call returns fresh values.
func Builtins() []Definition {
	return []Definition{
		{
			Name: "general-purpose",
			Description: "General-purpose agent for researching complex questions, searching for code and carrying out " +
				"multi-step tasks. When you are searching for a keyword or file and are not confident you will find " +
				"the right match in the first few tries, use this agent to do the search for you.",
			Prompt: prompt("general-purpose"), Origin: OriginBuiltin,
		},
		{
			Name: "Explore",
			Description: "Fast read-only agent for exploring codebases: finds files by patterns, searches code for " +
				"keywords and answers questions about how the code works. When calling it, say how thorough to be: " +
				`"quick" for a basic search, "medium" for moderate exploration, or "very thorough" for a comprehensive ` +
				"analysis across many locations and naming conventions.",
			Tools: slices.Clone(readOnlyTools), PermissionMode: permission.ModePlan, Prompt: prompt("explore"), Origin: OriginBuiltin,
		},
		{
			Name: "Plan",
			Description: "Read-only software architect agent for designing an implementation: studies the code a task " +
				"touches and returns a step-by-step plan naming the files and functions to change, the tests to add " +
				"and the risks. Use it before a change that spans several files or needs a design decision.",
			Tools: slices.Clone(readOnlyTools), PermissionMode: permission.ModePlan, Prompt: prompt("plan"), Origin: OriginBuiltin,
		},
	}
}

// prompt is the embedded builtin/NAME.md.
func prompt(name string) string {
	b, err := builtinPrompts.ReadFile("builtin/" + name + ".md")
	if err != nil {
		panic("subagent: built-in prompt " + name + " missing: " + err.Error()) // embedded at build time
	}
	return strings.TrimSpace(string(b))
}
