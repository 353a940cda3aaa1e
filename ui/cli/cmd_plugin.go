package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"pincer/core/app"
	"pincer/core/plugin"
	"pincer/ui/termtext"
)

const pluginUsage = `Usage:
  pincer plugin install PATH|GIT_URL [--scope user|project]   copy or clone a plugin and enable it
  pincer plugin list [--json]                                 installed plugins and what each contributes
  pincer plugin enable NAME [--scope user|project]
  pincer plugin disable NAME [--scope user|project]
  pincer plugin remove NAME
The project scope is this directory's project; its choice beats the user's there.
Plugins live in pincer's data directory; a repository cannot enable one.
Marketplaces (PLUGIN@MARKETPLACE) are not supported yet: install the plugin's directory or git URL.
`

// cmdPlugin is `pincer plugin ...`: install, list, enable, disable, remove,
// through core/app.
func cmdPlugin(args []string, stdout io.Writer) (int, error) {
	if len(args) == 0 {
		return 0, usagef("plugin needs a subcommand: install, list, enable, disable, remove (see pincer plugin --help)")
	}
	sub, rest := args[0], args[1:]
	if sub == "-h" || sub == "--help" || sub == "help" {
		fmt.Fprint(stdout, pluginUsage)
		return 0, nil
	}
	fs := flag.NewFlagSet("plugin "+sub, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	scope := fs.String("scope", "user", "user or project")
	asJSON := fs.Bool("json", false, "list as JSON")
	pos, err := parseInterspersed(fs, rest)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, pluginUsage)
		return 0, nil
	}
	if err != nil {
		return 0, usagef("plugin %s: %v", sub, err.Error())
	}
	one := func() (string, error) {
		if len(pos) != 1 {
			return "", usagef("plugin %s takes one argument, got %d", sub, len(pos))
		}
		return pos[0], nil
	}
	switch sub {
	case "install":
		src, err := one()
		if err != nil {
			return 0, err
		}
		p, err := app.InstallPlugin(context.Background(), src, *scope)
		if err != nil {
			return 1, err
		}
		fmt.Fprintf(stdout, "pincer: installed plugin %s %s, enabled (%s)\n", p.Name, version(p), *scope)
		writeContributions(stdout, p)
	case "list":
		if len(pos) > 0 {
			return 0, usagef("plugin list takes no arguments")
		}
		list, err := app.ListPlugins()
		if *asJSON {
			return writePluginsJSON(stdout, list, err)
		}
		if err != nil {
			fmt.Fprintf(stdout, "pincer: %v\n", err)
		}
		if len(list) == 0 {
			fmt.Fprintln(stdout, "no plugins installed (pincer plugin install PATH|GIT_URL)")
		}
		for _, in := range list {
			state := "disabled"
			if in.Enabled {
				state = "enabled"
			}
			if in.By != "" {
				state += " (" + string(in.By) + ")"
			}
			fmt.Fprintf(stdout, "%s %s  %s  from %s\n", in.Name, version(in.Plugin), state, orNone(in.Source.From))
			writeContributions(stdout, in.Plugin)
		}
		if err != nil {
			return 1, nil
		}
	case "enable", "disable":
		name, err := one()
		if err != nil {
			return 0, err
		}
		if err := app.SetPluginEnabled(name, *scope, sub == "enable"); err != nil {
			return 1, err
		}
		fmt.Fprintf(stdout, "pincer: plugin %s %sd (%s); new sessions see the change\n", name, sub, *scope)
	case "remove":
		name, err := one()
		if err != nil {
			return 0, err
		}
		if err := app.RemovePlugin(name); err != nil {
			return 1, err
		}
		fmt.Fprintf(stdout, "pincer: removed plugin %s\n", name)
	default:
		return 0, usagef("unknown plugin subcommand %q (install, list, enable, disable, remove)", sub)
	}
	return 0, nil
}

func version(p *plugin.Plugin) string {
	if p.Manifest != nil && p.Manifest.Version != "" {
		return p.Manifest.Version
	}
	return "(no version)"
}

func orNone(s string) string {
	if s == "" {
		return "(unknown)"
	}
	return s
}

// writeContributions prints what p contributes, one kind a line, and its errors.
func writeContributions(w io.Writer, p *plugin.Plugin) {
	line := func(what string, items []string, note string) {
		if len(items) > 0 {
			fmt.Fprintf(w, "  %s: %s%s\n", what, strings.Join(items, ", "), note)
		}
	}
	var cmds, agents, mcps, lsps []string
	for _, c := range p.CommandNames() {
		cmds = append(cmds, "/"+c)
	}
	var skills []string
	for _, s := range p.SkillNames() {
		skills = append(skills, "/"+s)
	}
	for _, a := range p.Agents {
		agents = append(agents, a.Name)
	}
	for _, s := range p.MCPServers {
		target := s.URL
		if s.Command != "" {
			target = strings.Join(append([]string{s.Command}, s.Args...), " ")
		}
		mcps = append(mcps, fmt.Sprintf("%s (%s: %s)", s.Name, s.Transport, target))
	}
	for _, l := range p.LSPServers {
		lsps = append(lsps, fmt.Sprintf("%s (%s)", l.Name, l.Command))
	}
	line("skills", skills, "")
	line("commands", cmds, "")
	line("agents", agents, "")
	line("hooks", p.HookSummaries(), "")
	line("mcp servers", mcps, "")
	line("lsp servers", lsps, " — recorded, not yet used")
	for _, e := range p.Errors {
		fmt.Fprintf(w, "  error: %v\n", e)
	}
}

// pluginJSON is one plugin of `pincer plugin list --json`.
type pluginJSON struct {
	Name        string   `json:"name"`
	Version     string   `json:"version,omitempty"`
	Description string   `json:"description,omitempty"`
	Enabled     bool     `json:"enabled"`
	Scope       string   `json:"scope,omitempty"`
	Source      string   `json:"source,omitempty"`
	Root        string   `json:"root"`
	Skills      []string `json:"skills"`
	Commands    []string `json:"commands"`
	Agents      []string `json:"agents"`
	Hooks       []string `json:"hooks"`
	MCPServers  []string `json:"mcpServers"`
	LSPServers  []string `json:"lspServers"`
	Errors      []string `json:"errors"`
}

func writePluginsJSON(w io.Writer, list []plugin.Installed, listErr error) (int, error) {
	out := []pluginJSON{}
	for _, in := range list {
		j := pluginJSON{Name: in.Name, Enabled: in.Enabled, Scope: string(in.By), Source: in.Source.From, Root: in.Root,
			Skills: nonNil(in.SkillNames()), Commands: nonNil(in.CommandNames()), Hooks: nonNil(in.HookSummaries()),
			Agents: []string{}, MCPServers: []string{}, LSPServers: []string{}, Errors: []string{}}
		if in.Manifest != nil {
			j.Version, j.Description = in.Manifest.Version, in.Manifest.Description
		}
		for _, a := range in.Agents {
			j.Agents = append(j.Agents, a.Name)
		}
		for _, s := range in.MCPServers {
			j.MCPServers = append(j.MCPServers, s.Name)
		}
		for _, l := range in.LSPServers {
			j.LSPServers = append(j.LSPServers, l.Name)
		}
		for _, e := range in.Errors {
			j.Errors = append(j.Errors, e.Error())
		}
		out = append(out, j)
	}
	enc := json.NewEncoder(termtext.JSON(w))
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return 1, err
	}
	if listErr != nil {
		return 1, listErr
	}
	return 0, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
