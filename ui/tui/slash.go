package tui

import (
	"fmt"
	"strings"

	"pincer/core/app"
	"pincer/core/mcp"
)

// slashCommand is a command typed in the input box: one row of the table that
// drives its completion (completeSlash, the help bar), the help screen and its
// dispatch (runSlash).
type slashCommand struct {
	name, args, help string
	// aliases are other names that run it ("/exit" for "/quit"); not completed.
	aliases []string
	// turn marks the agent's own commands: the line is sent as a turn's input
	// (as `pincer run "/compact"` does), run is nil.
	turn bool
	// run runs it with the words after the name; it reports whether the input
	// box should be cleared (false keeps a line to fix). Event loop only.
	run func(w *Workbench, args []string) bool
}

// slashCommands are the input box's commands, in the order help lists them. It
// is filled by init: the commands' run functions read the table themselves
// (help, completion), which a package-level initialiser may not.
var slashCommands []slashCommand

func init() {
	slashCommands = []slashCommand{
		{name: "/help", help: "keys and commands", run: (*Workbench).slashHelp},
		{name: "/clear", help: "start a new session", run: (*Workbench).slashClear},
		{name: "/sessions", help: "browse past sessions (Ctrl+O)", run: (*Workbench).slashSessions},
		{name: "/resume", args: "[ID]", help: "continue another session of this directory (alone: pick one)", run: (*Workbench).slashResume},
		{name: "/model", args: "[COMMAND]", help: "alone: pick a model; configure, switch, list … (Tab completes)", run: (*Workbench).modelCommand},
		{name: "/mode", args: "MODE", help: "show or set the permission mode", run: (*Workbench).modeCommand},
		{name: "/cost", help: "tokens and cost of this session", run: (*Workbench).slashCost},
		{name: "/status", help: "session, model, mode, context, MCP servers, sandbox and config files", run: (*Workbench).slashStatus},
		{name: "/permissions", args: "[allow|ask|deny RULE | remove …]", help: "the rules in force and where each comes from; add or remove one for this session", aliases: []string{"/allowed-tools"}, run: (*Workbench).slashPermissions},
		{name: "/config", help: "this workspace's configuration files: path, state, how to change them", run: (*Workbench).slashConfig},
		{name: "/agents", help: "the agent types the Agent tool can start (read-only list)", run: (*Workbench).slashAgents},
		{name: "/rewind", args: "[TURN]", help: "restore the code and/or conversation to before a turn (Esc Esc)", run: (*Workbench).slashRewind},
		{name: "/worktrees", help: "this repository's worktrees: branch, changes, session; merge or discard", run: (*Workbench).slashWorktrees},
		{name: "/bashes", args: "[ID | kill ID]", help: "the session's background shells; ID shows one's output, kill ID ends it", run: (*Workbench).slashBashes},
		{name: "/memory", args: "[add TEXT]", help: "memories and pending candidates: edit, delete; add TEXT proposes one", run: (*Workbench).slashMemory},
		{name: "/skills", help: "the skills of this session, a learned one's source, and pending skill candidates", run: (*Workbench).slashSkills},
		{name: "/mcp", help: "MCP servers: status, tools, prompts; approve a project's", run: (*Workbench).slashMCP},
		{name: "/context", help: "how much of the model's window the next call would use", run: (*Workbench).slashContext},
		{name: "/compact", args: "FOCUS", help: "summarise the history to free context", turn: true},
		{name: "/init", help: "ask the model to write an AGENTS.md", turn: true},
		{name: "/loop", args: "[INTERVAL] PROMPT", help: "send PROMPT every INTERVAL (10m); list, cancel ID", run: (*Workbench).slashLoop},
		{name: "/schedule", args: "in|every|at WHEN PROMPT", help: "send PROMPT once later, on an interval or at HH:MM; list, cancel ID", run: (*Workbench).slashSchedule},
		{name: "/tab", args: "[N|new [WORKTREE]|close]", help: "list the tabs; show tab N; open one (in a git worktree); close this one", run: (*Workbench).slashTab},
		{name: "/quit", help: "quit", aliases: []string{"/exit"}, run: (*Workbench).slashQuit},
	}
}

// lookupSlash finds a command by its name or an alias.
func lookupSlash(name string) (slashCommand, bool) {
	for _, c := range slashCommands {
		if c.name == name {
			return c, true
		}
		for _, a := range c.aliases {
			if a == name {
				return c, true
			}
		}
	}
	return slashCommand{}, false
}

// agentCommand reports whether a slash command is the agent's own (a turn
// input, as in pincer run): the table's turn commands.
func agentCommand(line string) bool {
	c, ok := lookupSlash(strings.Fields(line)[0])
	return ok && c.turn
}

// runSlash runs a slash command of the table; it reports whether the input box
// should be cleared (false for an unknown command, so it can be fixed). Event
// loop only.
func (w *Workbench) runSlash(line string) bool {
	fields := strings.Fields(line)
	c, ok := lookupSlash(fields[0])
	if !ok || c.run == nil {
		if why, ok := mcp.PromptUnavailable(w.mcp.list(), fields[0]); ok { // an MCP prompt whose server is not ready
			w.notice("warning", why)
			return false
		}
		w.notice("warning", "unknown command "+fields[0]+" — /help lists them")
		return false
	}
	w.slashLine = line
	defer func() { w.slashLine = "" }()
	return c.run(w, fields[1:])
}

// readyForSession reports whether a command that changes the live session may
// run now, saying why not: the backend is attached and no turn runs.
func (w *Workbench) readyForSession() (Backend, bool) {
	be, running := w.be, w.running
	switch {
	case be == nil:
		w.Notify("warning", "the store is still opening: try again in a moment")
	case running:
		w.Notify("warning", "a turn is running: wait for it, or press Esc to cancel it")
	default:
		return be, true
	}
	return nil, false
}

// slashHelp is /help: the help screen.
func (w *Workbench) slashHelp([]string) bool {
	w.helpOpen, w.helpOffset = true, 0
	return true
}

// slashQuit is /quit (/exit).
func (w *Workbench) slashQuit([]string) bool {
	w.stopAsync()
	return true
}

// slashSessions is /sessions: the sessions browser.
func (w *Workbench) slashSessions([]string) bool {
	w.openBrowser()
	return true
}

// slashCost is /cost: the session's turns, tokens and cost, as its log says.
func (w *Workbench) slashCost([]string) bool {
	status := w.model.Status
	cost := costText(status)
	switch cost {
	case "":
		cost = "none yet (no model call)"
	case "?":
		cost = "unknown (the provider reported no price)"
	}
	w.Notify("info", fmt.Sprintf("%d turns · %s input, %s output, %s cached tokens · cost %s",
		status.Turns, humanTokens(status.InputTokens), humanTokens(status.OutputTokens),
		humanTokens(status.CacheReadTokens), cost))
	return true
}

// slashClear is /clear: a new session becomes the live one.
func (w *Workbench) slashClear([]string) bool {
	be, ok := w.readyForSession()
	if !ok {
		return false
	}
	old, t := w.liveID, w.sessionTab
	w.goBackground(func() {
		running := runningIn(be, old) // they run on: the process's, not the session's
		id, err := be.NewSession(w.ctx, old)
		if err != nil {
			w.Notify("error", "new session: "+err.Error())
			return
		}
		w.showSession(t, be, id, false)
		w.Notify("info", "new session "+id+stillRunningNote(running))
	})
	return true
}

// slashResume is /resume ID: another session of this directory becomes the
// live one. Alone it opens the sessions browser to pick one (Ctrl+R resumes
// the selected), as Claude Code's /resume opens its picker (new user r24).
func (w *Workbench) slashResume(args []string) bool {
	if len(args) == 0 {
		w.openBrowser()
		w.hint("pick a session to resume: Ctrl+R resumes the selected one, Esc closes")
		return true
	}
	if len(args) != 1 {
		w.Notify("warning", "usage: /resume [ID] (alone: pick one in the sessions browser)")
		return false
	}
	be, ok := w.readyForSession()
	if !ok {
		return false
	}
	old, root, t := w.liveID, w.workspaceRoot(), w.sessionTab
	w.goBackground(func() { w.resume(t, be, old, root, args[0]) })
	return true
}

// completeSlash is Tab on a slash command being typed in the input box
// (completeSlashText): it completes one match or the prefix several share,
// and where nothing can be added it lists the matches on the notices line;
// it reports whether the text was a command being typed (Tab then never
// moves the focus).
func (w *Workbench) completeSlash() bool {
	text := w.input.GetText()
	list := w.commands()
	completed, candidates, ok := completeSlashText(text, list)
	switch {
	case !ok:
		return false
	case completed != text:
		w.input.SetText(completed, true)
		if e, ok := findCommand(list, strings.TrimSpace(completed)); ok && len(candidates) == 1 {
			w.hint(describeCommand(e))
		}
	case len(candidates) == 0:
		w.hint("no command starts with " + text + " — /help lists them")
	case len(candidates) > 1:
		w.hint(strings.Join(candidates, "  "))
	}
	return true
}

// SessionID returns the live session: the one turns go to ("" before
// Attach). While another session is shown read-only it is still this one.
// Safe from any goroutine: it reads what the event loop published.
func (w *Workbench) SessionID() string {
	if id := w.liveSession.Load(); id != nil {
		return *id
	}
	return ""
}

// workspaceRoot is where the workbench runs: Options.Cwd, else the live
// session's; "" while it is unknown (no Options.Cwd, another session shown read-only).
func (w *Workbench) workspaceRoot() string {
	if w.opts.Cwd != "" {
		return w.opts.Cwd
	}
	if !w.readOnly {
		return w.model.Status.Cwd
	}
	return ""
}

// resume switches to another session of this directory, found by its ID or a
// unique part of it (/resume ID): old is the live session, root the
// workspace (read on the event loop). Not on the event loop.
func (w *Workbench) resume(t *sessionTab, be Backend, old, root, id string) {
	all, err := be.Sessions(w.ctx, 0)
	if err != nil {
		w.Notify("error", "sessions: "+err.Error())
		return
	}
	var found []app.Session
	for _, s := range all {
		if root != "" && s.Cwd != root {
			continue
		}
		if s.ID == id {
			found = []app.Session{s}
			break
		}
		if strings.Contains(s.ID, id) {
			found = append(found, s)
		}
	}
	switch len(found) {
	case 0:
		w.Notify("warning", "no session "+id+" in this directory (Ctrl+O lists them)")
	case 1:
		w.resumeSession(t, be, old, found[0].ID)
	default:
		w.Notify("warning", fmt.Sprintf("%q matches %d sessions: type more of the ID", id, len(found)))
	}
}

// resumeSession makes id tab t's live session: the SessionEnd hooks of the
// one left (old), the SessionStart hooks ("resume") of this one, then its
// replay. Not on the event loop; the caller checked that no turn runs.
func (w *Workbench) resumeSession(t *sessionTab, be Backend, old, id string) {
	be.Resume(w.ctx, old, id)
	w.showSession(t, be, id, false)
	note := ""
	if old != id {
		note = stillRunningNote(runningIn(be, old)) // they run on, as after /clear
	}
	w.Notify("info", "resumed session "+id+note)
}
