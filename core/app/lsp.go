package app

import (
	"context"
	"sort"
	"time"

	"pincer/core/config"
	"pincer/core/lsp"
	"pincer/core/plugin"
	"pincer/core/prompt"
	"pincer/sandbox"
)

// lspSetup is what Prepare resolved for the language servers: the servers in
// force (config, plugins, defaults on PATH) and the wait for an edit's
// diagnostics. Off (no servers) when [lsp] enabled = false.
type lspSetup struct {
	Servers []lsp.Server
	Wait    time.Duration
}

// lspFrom resolves the language servers of a run: the user's [lsp.NAME]
// tables (a project's are never applied: core/config), then the enabled
// plugins' .lsp.json servers (installed by the person, trusted as their MCP
// servers and hooks are), then the defaults whose program is on PATH for the
// extensions no other server claims (lsp.Resolve).
func lspFrom(src *config.Sources, plugins []*plugin.Plugin, lookPath func(string) (string, error), report *configReport) lspSetup {
	set, errs := src.LSP()
	report.add(errs)
	if !set.Enabled() {
		return lspSetup{}
	}
	var configured []lsp.Server
	var disabled []string
	for _, t := range set.Servers {
		if t.Disabled {
			disabled = append(disabled, t.Name)
			continue
		}
		s := lsp.Server{Name: t.Name, Command: t.Command, Args: t.Args, Extensions: map[string]string{}, Origin: "config"}
		for _, e := range t.Extensions {
			s.Extensions[e] = lsp.LanguageID(e)
		}
		for _, k := range sortedEnvKeys(t.Env) {
			s.Env = append(s.Env, k+"="+t.Env[k])
		}
		configured = append(configured, s)
	}
	for _, p := range plugins {
		for _, l := range p.LSPServers {
			if containsString(disabled, l.Name) {
				continue
			}
			configured = append(configured, lsp.Server{Name: p.Name + ":" + l.Name, Command: l.Command, Args: l.Args,
				Extensions: l.Extensions, Origin: p.Origin()})
		}
	}
	out := lspSetup{Servers: lsp.Resolve(configured, lsp.Defaults(lookPath), disabled)}
	if set.WaitMs > 0 {
		out.Wait = time.Duration(set.WaitMs) * time.Millisecond
	}
	return out
}

func sortedEnvKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// newLSP is the Run's language-server Manager (nil when no server is in
// force): its servers run under the session's sandbox policy as Bash's
// commands do (nil policy: --no-sandbox, plain processes), in the workspace
// root, with their reads confined wherever Landlock can confine them — a
// server reads the files the model writes, unasked, and its diagnostics
// reach the model: gopls followed a z.go a background `cp -P … && mv` had
// made a link leading outside and quoted the outside file's first word
// (red team r21b F1), and cgo's `__has_include` told whether any path
// exists (F2). Warnings go to the Setup's.
func (s *Setup) newLSP() *lsp.Manager {
	if len(s.LSP.Servers) == 0 {
		return nil
	}
	return lsp.New(lsp.Options{Servers: s.LSP.Servers, Root: s.Workspace.Root(), Executor: lspExecutor(s.Sandbox, s.Workspace), Wait: s.LSP.Wait})
}

// lspExecutor is what language servers run under: pol with its reads
// confined where the machine can confine them (newLSP says why); nil for no
// sandbox.
func lspExecutor(pol *sandbox.Policy, ws *sandbox.Workspace) *sandbox.Executor {
	if pol == nil {
		return nil
	}
	ex := &sandbox.Executor{Policy: *pol, Workspace: ws}
	if ex.CanConfineReads() == nil {
		ex.Policy.ConfineReads = true
	}
	return ex
}

// diagnoser adapts a Manager to agent.Diagnoser: its text becomes the
// prompt's diagnostics segment.
type diagnoser struct{ m *lsp.Manager }

func (d diagnoser) TurnStarted(session string) { d.m.TurnStarted(session) }
func (d diagnoser) FilesChanged(ctx context.Context, session string, paths []string) {
	d.m.FilesChanged(ctx, session, paths)
}
func (d diagnoser) Segment(session string) string { return prompt.DiagnosticsText(d.m.Text(session)) }
