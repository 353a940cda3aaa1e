package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"pincer/core/app"
	"pincer/core/config"
	"pincer/core/mcp"
)

const mcpUsage = `Usage: pincer mcp COMMAND

  list [--timeout D]          every MCP server configured here: name, scope, transport, command or
                              URL, status (each approved server is connected once, as claude mcp list)
  get NAME [--timeout D]      one server: where it is configured, what it runs, its tools, prompts
                              and resources
  add [--scope user|project] [--transport stdio|http|sse] [-e KEY=VALUE]... [-H "Name: value"]...
      NAME COMMAND_OR_URL [ARGS...]
                              add a server to your config.toml (user, the default) or the project's
                              .mcp.json (project); put -- before a command whose arguments start with -
  add-json [--scope user|project] NAME JSON
                              add a server from one .mcp.json entry's JSON, as claude mcp add-json
  remove [--scope user|project] NAME
                              remove a server from the file that has it
  approve NAME... | --all     let this project's .mcp.json servers start (prints what each runs);
                              an approval holds until the entry changes

Read: your config.toml ([mcp.servers.NAME]), ~/.claude.json (Claude Code's user "mcpServers" and
this project's "projects"[DIR]["mcpServers"], its local scope), the project's .mcp.json and each
--mcp-config. A project's .mcp.json servers start only once approved; yours start without asking. Secrets do not go into config files: pass -e 'TOKEN=${TOKEN}' and export TOKEN.
`

// cmdMCP is `pincer mcp ...`, through core/app.
func cmdMCP(args []string, stdout, stderr io.Writer) (int, error) {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, mcpUsage)
		if len(args) == 0 {
			return exitUsage, nil
		}
		return 0, nil
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "list":
		return mcpList(rest, stdout, stderr)
	case "get":
		return mcpGet(rest, stdout, stderr)
	case "add":
		return mcpAdd(rest, stdout)
	case "add-json":
		return mcpAddJSON(rest, stdout)
	case "remove", "rm":
		return mcpRemove(rest, stdout)
	case "approve":
		return mcpApprove(rest, stdout, stderr)
	}
	return 0, usagef("mcp: unknown command %q (list, get, add, add-json, remove, approve)", sub)
}

// mcpFlags is a flag set for one mcp subcommand: errors are usage errors, help
// prints the mcp usage.
func mcpFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("mcp "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseMCPFlags parses args with fs, anywhere on the line (interspersed).
func parseMCPFlags(fs *flag.FlagSet, args []string, stdout io.Writer) ([]string, bool, error) {
	pos, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, mcpUsage)
		return nil, true, nil
	}
	return pos, false, err
}

// loadMCP reads the configuration, printing its warnings.
func loadMCP(stderr io.Writer) (*app.MCPConfigured, error) {
	cfg, err := app.LoadMCPServers(nil)
	if err != nil {
		return nil, err
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintf(stderr, "pincer: warning: %s\n", w)
	}
	if cfg.Failure != nil {
		return nil, cfg.Failure
	}
	return cfg, nil
}

// probeContext is a context Ctrl+C cancels.
func probeContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

func mcpList(args []string, stdout, stderr io.Writer) (int, error) {
	fs := mcpFlags("list")
	timeout := fs.Duration("timeout", app.MCPTimeout(), "how long each server may take to connect (default: MCP_TIMEOUT ms, else 10s)")
	pos, help, err := parseMCPFlags(fs, args, stdout)
	if help || err != nil {
		return 0, err
	}
	if len(pos) > 0 {
		return 0, usagef("mcp list takes no arguments, got %q", pos[0])
	}
	cfg, err := loadMCP(stderr)
	if err != nil {
		return 0, err
	}
	if len(cfg.Servers) == 0 && len(cfg.Warnings) > 0 { // a file that does not parse is not "none"
		fmt.Fprintln(stdout, "No MCP server could be read: the configuration has problems (the warnings above, FILE:LINE); fix them and run this again.")
		return 0, nil
	}
	if len(cfg.Servers) == 0 {
		fmt.Fprintln(stdout, "No MCP servers configured (see pincer mcp add, or the project's .mcp.json).")
		return 0, nil
	}
	ctx, stop := probeContext()
	defer stop()
	states := app.ProbeMCPServers(ctx, cfg.Root, Version, cfg.Servers, *timeout)
	tw := tabwriter.NewWriter(stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSCOPE\tTRANSPORT\tCOMMAND / URL\tSTATUS")
	for _, st := range states {
		c := st.Config
		transport, command := string(c.Transport), app.MCPServerCommand(c)
		if c.Broken != "" {
			transport, command = "-", "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.Name, c.Scope, transport, command, mcpStatusLine(st))
	}
	tw.Flush()
	for _, st := range states {
		for _, w := range st.Config.Warnings() {
			fmt.Fprintf(stdout, "warning: %s: %s\n", st.Config.Name, w)
		}
	}
	for _, st := range states {
		if st.Status == mcp.StatusNeedsApproval {
			fmt.Fprintln(stdout, "\nApprove a project server with: pincer mcp approve NAME (or --all)")
			break
		}
	}
	return 0, nil
}

// mcpStatusLine is a state in one line: "ready: 3 tools, 1 prompt", "failed:
// REASON", "needs approval", "disabled".
func mcpStatusLine(st mcp.ServerState) string {
	switch st.Status {
	case mcp.StatusReady:
		return "ready: " + mcpCounts(st)
	case mcp.StatusFailed:
		if st.Config.Broken != "" {
			return st.Config.Redact(st.Reason) // "not started: PROBLEM (FILE:LINE)"
		}
		return "failed: " + st.Config.Redact(st.Reason)
	}
	return string(st.Status)
}

// mcpCounts is "N tools, N prompts, N resources", zero counts left out but tools.
func mcpCounts(st mcp.ServerState) string {
	parts := []string{plural(len(st.Tools), "tool")}
	if n := len(st.Prompts); n > 0 {
		parts = append(parts, plural(n, "prompt"))
	}
	if n := len(st.Resources); n > 0 {
		parts = append(parts, plural(n, "resource"))
	}
	return strings.Join(parts, ", ")
}

func mcpGet(args []string, stdout, stderr io.Writer) (int, error) {
	fs := mcpFlags("get")
	timeout := fs.Duration("timeout", app.MCPTimeout(), "how long the server may take to connect (default: MCP_TIMEOUT ms, else 10s)")
	pos, help, err := parseMCPFlags(fs, args, stdout)
	if help || err != nil {
		return 0, err
	}
	if len(pos) != 1 {
		return 0, usagef("mcp get takes one server name")
	}
	cfg, err := loadMCP(stderr)
	if err != nil {
		return 0, err
	}
	s, ok := cfg.Lookup(pos[0])
	if !ok {
		return 1, fmt.Errorf("no MCP server named %q here (see pincer mcp list)", pos[0])
	}
	ctx, stop := probeContext()
	defer stop()
	st := app.ProbeMCPServers(ctx, cfg.Root, Version, []mcp.ServerConfig{s}, *timeout)[0]
	where := s.File
	if rel, err := filepath.Rel(cfg.Root, s.File); err == nil && !strings.HasPrefix(rel, "..") {
		where = rel
	}
	if s.Line > 0 {
		where = fmt.Sprintf("%s:%d", where, s.Line)
	}
	fmt.Fprintf(stdout, "%s\n  scope:      %s (%s)\n  transport:  %s\n", s.Name, s.Scope, where, s.Transport)
	if s.Command != "" {
		fmt.Fprintf(stdout, "  command:    %s\n", app.MCPServerCommand(s))
	} else if s.URL != "" {
		fmt.Fprintf(stdout, "  url:        %s\n", app.MCPServerCommand(s))
	}
	for _, w := range s.Warnings() {
		fmt.Fprintf(stdout, "  warning:    %s\n", w)
	}
	fmt.Fprintf(stdout, "  status:     %s\n", mcpStatusLine(st))
	switch st.Status {
	case mcp.StatusNeedsApproval:
		fmt.Fprintf(stdout, "  (a project server: approve it with pincer mcp approve %s)\n", s.Name)
	case mcp.StatusReady:
		if len(st.Tools) > 0 {
			fmt.Fprintln(stdout, "  tools:")
			for _, t := range st.Tools {
				fmt.Fprintf(stdout, "    %s\n", t)
			}
		}
		if len(st.Prompts) > 0 {
			fmt.Fprintln(stdout, "  prompts (slash commands):")
			for _, p := range st.Prompts {
				fmt.Fprintf(stdout, "    /mcp__%s__%s  %s\n", mcp.Sanitize(s.Name), mcp.Sanitize(p.Name), firstLine(p.Description))
			}
		}
		if len(st.Resources) > 0 {
			fmt.Fprintln(stdout, "  resources:")
			for _, r := range st.Resources {
				fmt.Fprintf(stdout, "    %s  %s\n", r.URI, r.Name)
			}
		}
		if st.Instructions != "" {
			fmt.Fprintf(stdout, "  instructions: %s\n", firstLine(st.Instructions))
		}
	}
	return 0, nil
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// mcpScopeFlag parses --scope: user, project, or "" when allowEmpty.
func mcpScopeFlag(v string, allowEmpty bool) (mcp.Scope, error) {
	switch v {
	case "user":
		return mcp.ScopeUser, nil
	case "project":
		return mcp.ScopeProject, nil
	case "":
		if allowEmpty {
			return "", nil
		}
	case "local":
		return "", usagef("--scope local: pincer has no local scope to write (Claude Code's, in ~/.claude.json, is read but not written: claude mcp add writes it); use user (your config.toml) or project (.mcp.json)")
	}
	return "", usagef("--scope %q: want user or project", v)
}

func mcpAdd(args []string, stdout io.Writer) (int, error) {
	fs := mcpFlags("add")
	var scope, transport string
	var env, headers stringList
	fs.StringVar(&scope, "scope", "user", "user (your config.toml) or project (.mcp.json)")
	fs.StringVar(&scope, "s", "user", "short for --scope")
	fs.StringVar(&transport, "transport", "stdio", "stdio, http or sse")
	fs.StringVar(&transport, "t", "stdio", "short for --transport")
	fs.Var(&env, "env", "KEY=VALUE for the server's environment (repeatable)")
	fs.Var(&env, "e", "short for --env")
	fs.Var(&headers, "header", `"Name: value" sent with every request (repeatable)`)
	fs.Var(&headers, "H", "short for --header")
	// Flags come before NAME or between NAME and the command; everything from
	// the command on is the server's.
	var pos []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(stdout, mcpUsage)
				return 0, nil
			}
			return 0, usagef("mcp add: %v", err)
		}
		rest = fs.Args()
		if len(pos) == 1 || len(rest) == 0 {
			pos = append(pos, rest...)
			break
		}
		pos, rest = append(pos, rest[0]), rest[1:]
	}
	if len(pos) < 2 {
		return 0, usagef("mcp add needs NAME and a command (stdio) or URL (http, sse); see pincer mcp --help")
	}
	sc, err := mcpScopeFlag(scope, false)
	if err != nil {
		return 0, err
	}
	spec := config.MCPServerSpec{Name: pos[0], Type: transport}
	if transport == "stdio" {
		spec.Command, spec.Args = pos[1], pos[2:]
	} else {
		// A URL takes no arguments, so flags may follow it too (Claude Code's
		// `add --transport http NAME URL --header "...`).
		more, err := parseInterspersed(fs, pos[2:])
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, mcpUsage)
			return 0, nil
		}
		if err != nil {
			return 0, err
		}
		if len(more) > 0 {
			return 0, usagef("an %s server takes one URL, got also %q", transport, more[0])
		}
		spec.URL = pos[1]
	}
	for _, kv := range env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || !validEnvName(k) {
			return 0, usagef("-e %q: want KEY=VALUE", kv)
		}
		if spec.Env == nil {
			spec.Env = map[string]string{}
		}
		spec.Env[k] = v
	}
	for _, h := range headers {
		k, v, ok := strings.Cut(h, ":")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" || strings.ContainsAny(k, " \t\r\n") {
			return 0, usagef("-H %q: want \"Name: value\"", h)
		}
		if spec.Headers == nil {
			spec.Headers = map[string]string{}
		}
		spec.Headers[k] = v
	}
	if err := spec.Check(); err != nil {
		return 0, usagef("mcp add: %v", err)
	}
	return mcpWrite(sc, spec, stdout)
}

// mcpWrite writes a checked spec into the file of scope sc and says so.
func mcpWrite(sc mcp.Scope, spec config.MCPServerSpec, stdout io.Writer) (int, error) {
	root := ""
	if sc == mcp.ScopeProject {
		ws, err := app.WorkspaceHere()
		if err != nil {
			return 1, err
		}
		root = ws.Root()
	}
	path, err := app.AddMCPServerTo(root, sc, spec)
	if err != nil {
		return 1, err
	}
	fmt.Fprintf(stdout, "Added MCP server %s (%s, %s) to %s\n", spec.Name, sc, spec.Type, path)
	if sc == mcp.ScopeProject {
		fmt.Fprintf(stdout, "A project server starts once approved: pincer mcp approve %s\n", spec.Name)
	}
	return 0, nil
}

// validEnvName reports whether k can name an environment variable.
func validEnvName(k string) bool {
	if k == "" || k[0] >= '0' && k[0] <= '9' {
		return false
	}
	for _, c := range k {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func mcpRemove(args []string, stdout io.Writer) (int, error) {
	fs := mcpFlags("remove")
	var scope string
	fs.StringVar(&scope, "scope", "", "user or project (default: the one that has it)")
	fs.StringVar(&scope, "s", "", "short for --scope")
	pos, help, err := parseMCPFlags(fs, args, stdout)
	if help || err != nil {
		return 0, err
	}
	if len(pos) != 1 {
		return 0, usagef("mcp remove takes one server name")
	}
	sc, err := mcpScopeFlag(scope, true)
	if err != nil {
		return 0, err
	}
	ws, err := app.WorkspaceHere()
	if err != nil {
		return 1, err
	}
	path, err := app.RemoveMCPServerFrom(ws.Root(), sc, pos[0])
	if err != nil {
		return 1, err
	}
	fmt.Fprintf(stdout, "Removed MCP server %s from %s\n", pos[0], path)
	return 0, nil
}

func mcpApprove(args []string, stdout, stderr io.Writer) (int, error) {
	fs := mcpFlags("approve")
	all := fs.Bool("all", false, "every server of this project's .mcp.json")
	pos, help, err := parseMCPFlags(fs, args, stdout)
	if help || err != nil {
		return 0, err
	}
	if *all == (len(pos) > 0) {
		return 0, usagef("mcp approve takes server names or --all")
	}
	cfg, err := loadMCP(stderr)
	if err != nil {
		return 0, err
	}
	var todo []mcp.ServerConfig
	if *all {
		for _, s := range cfg.Servers {
			if s.Scope == mcp.ScopeProject && !s.Disabled && s.Broken == "" {
				todo = append(todo, s)
			}
		}
		if len(todo) == 0 {
			fmt.Fprintln(stdout, "This project's .mcp.json has no server to approve.")
			return 0, nil
		}
	}
	code := 0
	for _, name := range pos {
		s, ok := cfg.Lookup(name)
		switch {
		case !ok:
			fmt.Fprintf(stderr, "pincer: no MCP server named %q here (see pincer mcp list)\n", name)
			code = 1
		case s.Scope != mcp.ScopeProject:
			fmt.Fprintf(stdout, "%s is your own server (%s): it needs no approval\n", name, s.Scope)
		case s.Broken != "":
			fmt.Fprintf(stderr, "pincer: %s cannot be approved: %s\n", name, s.Broken)
			code = 1
		case s.Disabled:
			fmt.Fprintf(stderr, "pincer: %s is refused by disabledMcpjsonServers in ~/.claude/settings.json; remove it there first\n", name)
			code = 1
		default:
			todo = append(todo, s)
		}
	}
	for _, s := range todo {
		if err := app.ApproveMCPServer(cfg.Root, s); err != nil {
			return 1, err
		}
		fmt.Fprintf(stdout, "Approved %s for %s (.mcp.json:%d): %s\n", s.Name, cfg.Root, s.Line, app.MCPServerCommand(s))
		for _, w := range s.Warnings() {
			fmt.Fprintf(stdout, "  warning: %s\n", w)
		}
	}
	return code, nil
}

// mcpAddJSON is `pincer mcp add-json [--scope user|project] NAME JSON`, as
// Claude Code's: JSON is one .mcp.json entry, written where add writes.
func mcpAddJSON(args []string, stdout io.Writer) (int, error) {
	fs := mcpFlags("add-json")
	var scope string
	fs.StringVar(&scope, "scope", "user", "user (your config.toml) or project (.mcp.json)")
	fs.StringVar(&scope, "s", "user", "short for --scope")
	pos, help, err := parseMCPFlags(fs, args, stdout)
	if help || err != nil {
		return 0, err
	}
	if len(pos) != 2 {
		return 0, usagef("mcp add-json takes NAME and the server's JSON ('{\"command\": \"npx\", \"args\": [...]}')")
	}
	sc, err := mcpScopeFlag(scope, false)
	if err != nil {
		return 0, err
	}
	spec, err := config.MCPSpecFromJSON(pos[0], pos[1])
	if err != nil {
		return 0, usagef("mcp add-json: %v", err)
	}
	return mcpWrite(sc, spec, stdout)
}
