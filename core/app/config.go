package app

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"pincer/core/config"
	"pincer/core/hook"
	"pincer/core/permission"
	"pincer/sandbox"
)

// Reading the configuration of a run: core/config reads every source once
// (Read), and the rules, hooks and sandbox policy are built from its typed
// tables. Every problem goes into one configReport; see config_check.go for
// what is fatal.

// readConfig reads the rules, hooks and sandbox settings; see Prepare.
func (s *Setup) readConfig() error {
	opts, root := s.Options, s.Workspace.Root()
	paths := config.PathsFrom(os.Getenv)
	s.mcpFileAtStart = stampOf(filepath.Join(root, ".mcp.json")) // before the read: a change meanwhile shows
	src := config.Read(paths, root)
	for _, v := range opts.MCPConfigs {
		src.MCPConfigArg(v)
	}
	s.Config = src
	var report configReport
	report.add(src.Errors())
	var mcpReport configReport
	s.MCPServers = mcpServersFrom(src, &mcpReport)
	s.MCPWarnings = dedupe(append(mcpDocProblems(src), append(mcpReport.fatal, mcpReport.warnings...)...))
	report.fatal, report.warnings = append(report.fatal, mcpReport.fatal...), append(report.warnings, mcpReport.warnings...)
	pluginHooks := s.loadPlugins(paths, root, &report)
	rules, err := rulesFrom(src, opts.AllowedTools, opts.DisallowedTools, &report)
	if err != nil {
		return err
	}
	hooks, trustWarning := hooksTrusted(src, pluginHooks, opts.TrustProjectHooks, &report)
	if trustWarning != "" {
		report.warnings = append(report.warnings, trustWarning)
	}
	s.Sandbox = sandboxPolicy(src, sandboxFlags{NoSandbox: opts.NoSandbox, AllowNetwork: opts.AllowNetwork}, &report)
	s.ToolSearch = toolSearchPolicy(src, os.Getenv, &report)
	s.Teams = teamsEnabled(src, os.Getenv, &report)
	s.Protocols = protocolsFrom(src, paths.Data, &report)
	s.LSP = lspFrom(src, s.Plugins, nil, &report)
	s.Classifier = classifierFrom(src, &report)
	s.Checkpoints = checkpointsFrom(src, &report)
	s.SkillsLearn = skillsFrom(src, &report)
	s.MemorySet = memoryFrom(src, &report)
	s.Warnings = append(s.Warnings, report.warnings...)
	s.Rules, s.Hooks = rules, hooks
	s.protectTrustedCode()
	if err := report.failure(); err != nil {
		if !opts.FailClosed {
			return err
		}
		s.ConfigErrors = dedupe(report.fatal)
		s.Rules = denyAll(rules, s.Tools, s.ConfigErrors)
		s.Hooks = nil // nothing of a half-read configuration runs
		// Nor any MCP server: denyAll covers the tools registered now, not the
		// ones a server would add later.
		s.MCPServers = nil
		s.LSP = lspSetup{} // nor any language server
	}
	return nil
}

// rulesFrom merges the permission rules of the config files with
// --allowed-tools and --disallowed-tools (every use of either adds its rules; a
// bad rule there is a usage error). The files' problems go to report: a fatal
// one stops pincer.
func rulesFrom(src *config.Sources, allowed, disallowed []string, report *configReport) (permission.RuleSet, error) {
	tables, errs := src.Permissions()
	rules, rerrs := permission.RulesFrom(tables)
	report.add(errs, rerrs)
	for _, v := range allowed {
		allow, err := permission.ParseRuleList(v, "--allowed-tools")
		if err != nil {
			return rules, usagef("%v", err) // the error names the flag
		}
		rules = rules.Add(permission.Allow, allow...)
	}
	for _, v := range disallowed {
		deny, err := permission.ParseRuleList(v, "--disallowed-tools")
		if err != nil {
			return rules, usagef("%v", err)
		}
		rules = rules.Add(permission.Deny, deny...)
	}
	return rules, nil
}

// hooksFrom builds the hook runner of the sources' hook tables and then the
// enabled plugins' (plugins), every problem going to report. The runner is
// never nil.
func hooksFrom(src *config.Sources, plugins []config.HookTable, report *configReport) *hook.Runner {
	tables, errs := src.Hooks()
	tables = append(tables, plugins...)
	defs, derrs := hook.DefsFrom(tables)
	runner, rerrs := hook.NewRunner(defs, src.Workspace)
	if src.Paths.Data != "" {
		runner.SetCacheDir(filepath.Join(src.Paths.Data, "hook-cache")) // hidden from commands
	}
	report.add(errs, derrs, rerrs)
	return runner
}

// sandboxFlags are the command-line switches that change the sandbox policy:
// --no-sandbox and --allow-network. Like the user's config, flags may loosen.
type sandboxFlags struct {
	NoSandbox    bool
	AllowNetwork bool
}

// sandboxPolicy builds the Bash tool's sandbox policy: sandbox.DefaultPolicy
// (network off), the user's [sandbox], the project's (tightening only:
// sandbox.PolicyFrom), then the flags — --allow-network turns the network on,
// --no-sandbox turns the OS sandbox off. A [sandbox] table of the wrong shape
// is fatal in report, a project key that would loosen the sandbox a warning.
// nil means no OS sandbox.
func sandboxPolicy(src *config.Sources, flags sandboxFlags, report *configReport) *sandbox.Policy {
	layers, errs := src.Sandbox()
	report.add(errs)
	p, ignored := sandbox.PolicyFrom(sandbox.DefaultPolicy(), src.Paths.Home, layers)
	report.warnings = append(report.warnings, ignored...)
	if flags.AllowNetwork {
		p.Network = true
	}
	if flags.NoSandbox || !p.Enabled {
		return nil
	}
	return &p
}

// LoadSandboxPolicy builds the Bash tool's sandbox policy of workspace from the
// defaults, the config files and --no-sandbox (see sandboxPolicy), for `pincer
// doctor`: every configuration problem of the [sandbox] tables goes to w, one
// line each. nil means no OS sandbox.
func LoadSandboxPolicy(workspace string, noSandbox bool, w io.Writer) *sandbox.Policy {
	src := config.Read(config.PathsFrom(os.Getenv), workspace)
	var report configReport
	report.add(src.Errors())
	p := sandboxPolicy(src, sandboxFlags{NoSandbox: noSandbox}, &report)
	for _, line := range append(dedupe(report.fatal), report.warnings...) {
		fmt.Fprintf(w, "pincer: warning: %s\n", line)
	}
	return p
}
