package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"pincer/core/app"
	"pincer/ui/termtext"
)

const agentsUsage = `Usage:
  pincer agents [list] [--json]   the agent types a session here can start (the Agent tool's subagent_type)
Built-in: general-purpose, Explore, Plan; then .claude/agents/*.md of the project, ~/.claude/agents and
pincer's config dir agents/, the enabled plugins' agents (PLUGIN:NAME). A file that does not parse is not
loaded and is reported FILE:LINE.
`

// cmdAgents is `pincer agents [list] [--json]`: the definitions a session
// started in this directory would have (app.ListAgents), the warnings on
// stderr.
func cmdAgents(args []string, stdout, stderr io.Writer) (int, error) {
	if len(args) > 0 && (args[0] == "list" || args[0] == "help") {
		if args[0] == "help" {
			fmt.Fprint(stdout, agentsUsage)
			return 0, nil
		}
		args = args[1:]
	}
	fs := flag.NewFlagSet("agents", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "list as JSON")
	pos, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, agentsUsage)
		return 0, nil
	}
	if err != nil {
		return 0, usagef("agents: %v", err)
	}
	if len(pos) > 0 {
		return 0, usagef("agents: unknown argument %q (pincer agents [list] [--json])", pos[0])
	}
	list, warnings, err := app.ListAgents()
	if err != nil {
		return 1, err
	}
	for _, w := range warnings {
		fmt.Fprintln(stderr, "pincer: warning:", termtext.Line(w))
	}
	if *asJSON {
		if list == nil {
			list = []app.AgentInfo{}
		}
		enc := json.NewEncoder(termtext.JSON(stdout))
		enc.SetIndent("", "  ")
		if err := enc.Encode(list); err != nil {
			return 1, err
		}
		return 0, nil
	}
	for _, a := range list {
		writeAgent(stdout, a)
	}
	return 0, nil
}

// writeAgent prints one definition: "NAME (ORIGIN)", then its tools, the
// fields it sets, its description and its file, indented. Every text of a
// file is one clean line (termtext.Line: no terminal escapes).
func writeAgent(w io.Writer, a app.AgentInfo) {
	fmt.Fprintf(w, "%s (%s)\n", termtext.Line(a.Name), a.Origin)
	fmt.Fprintf(w, "  tools: %s\n", termtext.Line(a.Tools))
	for _, f := range agentFields(a) {
		fmt.Fprintf(w, "  %s\n", termtext.Line(f))
	}
	fmt.Fprintf(w, "  %s\n", termtext.Line(a.Description))
	if a.Path != "" {
		fmt.Fprintf(w, "  file: %s\n", termtext.Line(a.Path))
	}
}

// agentFields are the optional fields a definition sets, "key: value" each.
func agentFields(a app.AgentInfo) []string {
	var out []string
	if a.ReadOnly {
		out = append(out, "read-only (plan mode)")
	} else if a.PermissionMode != "" {
		out = append(out, "permissionMode: "+a.PermissionMode+" (only when stricter than the session's)")
	}
	if a.Model != "" {
		out = append(out, "model: "+a.Model)
	}
	if a.MaxTurns > 0 {
		out = append(out, fmt.Sprintf("maxTurns: %d", a.MaxTurns))
	}
	if a.Isolation != "" {
		out = append(out, "isolation: "+a.Isolation)
	}
	return out
}
