package tui

import (
	"cmp"
	"fmt"

	"pincer/core/app"
	"pincer/core/mcp"
	"pincer/ui/termtext"
)

// statusBackend is the part of a Backend /status and /config read
// (app.Backend has it).
type statusBackend interface {
	ConfigFiles() []app.ConfigFile
	SandboxLines() []string
}

// statusFacts is what /status shows, gathered on the event loop (the
// session, model, mode, MCP servers) and off it (the files, the sandbox).
type statusFacts struct {
	Session, Model, Mode, Workspace string
	Turns                           int
	Context                         string // "~12.3k of 128k tokens (9.6%)", or "" before a model call
	MCPReady, MCPTotal              int
	Files                           []app.ConfigFile
	Sandbox                         []string
}

// slashStatus is /status, as Claude Code's: the session, model, permission
// mode, workspace, context in use, MCP servers, the configuration files'
// state and the OS sandbox, on the help screen (Esc closes it).
func (w *Workbench) slashStatus([]string) bool {
	sb, ok := w.be.(statusBackend)
	if !ok || w.liveID == "" {
		w.Notify("warning", "the store is still opening: try again in a moment")
		return false
	}
	st := w.model.Status
	f := statusFacts{Session: w.liveID, Model: cmp.Or(st.Model, w.opts.Model), Mode: w.mode,
		Workspace: cmp.Or(st.Cwd, w.opts.Cwd), Turns: st.Turns}
	if st.LastContextTokens > 0 {
		f.Context = "~" + humanTokens(st.LastContextTokens) + " tokens"
		if st.ContextWindow > 0 {
			f.Context += fmt.Sprintf(" of %s (%.1f%%)", humanTokens(st.ContextWindow), 100*float64(st.LastContextTokens)/float64(st.ContextWindow))
		}
	}
	for _, s := range w.mcp.list() {
		f.MCPTotal++
		if s.Status == mcp.StatusReady {
			f.MCPReady++
		}
	}
	w.goBackground(func() {
		f.Files, f.Sandbox = sb.ConfigFiles(), sb.SandboxLines()
		lines := statusLines(f)
		w.pump.post(func() { w.showTopic(lines) })
	})
	return true
}

// slashConfig is /config: every configuration file of this workspace (the
// user's and the repository's, in merge order) with its path and whether it
// exists and parses, as read now, and how to change them (/update-config,
// /permissions, pincer model, pincer mcp).
func (w *Workbench) slashConfig([]string) bool {
	sb, ok := w.be.(statusBackend)
	if !ok {
		w.Notify("warning", "the store is still opening: try again in a moment")
		return false
	}
	w.goBackground(func() {
		lines := append([]string{"Configuration files — Esc closes, j/k scroll", ""}, configFileLines(sb.ConfigFiles())...)
		lines = append(lines, "",
			"  /update-config REQUEST asks the model to change them (each write shows its diff and waits for you);",
			"  /permissions adds a rule for this session; pincer model configure and pincer mcp add edit the user config.",
			"  A file changed here counts from pincer's next start.")
		w.pump.post(func() { w.showTopic(lines) })
	})
	return true
}

// statusLines renders /status (pure).
func statusLines(f statusFacts) []string {
	ctx := f.Context
	if ctx == "" {
		ctx = "none yet (no model call)"
	}
	lines := []string{"Status — Esc closes, j/k scroll", "",
		"  session:    " + f.Session + fmt.Sprintf("  (%d turns)", f.Turns),
		"  model:      " + termtext.Line(f.Model),
		"  mode:       " + f.Mode,
		"  workspace:  " + termtext.Line(f.Workspace),
		"  context:    " + ctx,
		fmt.Sprintf("  MCP:        %d of %d servers ready (/mcp)", f.MCPReady, f.MCPTotal),
		"", "  sandbox:"}
	for _, l := range f.Sandbox {
		lines = append(lines, "    "+termtext.Line(l))
	}
	lines = append(lines, "", "  configuration (/config):")
	return append(lines, configFileLines(f.Files)...)
}

// configFileLines are one line per configuration file: its name, state
// (ok, absent, or its problem, FILE:LINE: what) and path.
func configFileLines(files []app.ConfigFile) []string {
	var out []string
	for _, f := range files {
		state := "absent"
		switch {
		case f.Problem != "":
			state = "PROBLEM: " + termtext.Line(f.Problem)
		case f.Exists && f.NotStarted > 0:
			state = "parses, but " + plural(f.NotStarted, "MCP server") + " cannot start (/mcp)"
		case f.Exists:
			state = "ok"
		}
		whose := ""
		if f.Project {
			whose = ", the repository's"
		}
		out = append(out, fmt.Sprintf("    %-28s %s  (%s%s)", termtext.Line(f.Name), state, termtext.Line(f.Path), whose))
	}
	if len(out) == 0 {
		out = append(out, "    none")
	}
	return out
}
