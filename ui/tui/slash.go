package tui

import (
	"fmt"
	"strings"

	"pincer/core/app"
)

// slashCommand is a command typed in the input box.
type slashCommand struct{ name, args, help string }

// slashCommands are the input box's commands; the help bar completes them as
// they are typed.
var slashCommands = []slashCommand{
	{"/help", "", "keys and commands"},
	{"/clear", "", "start a new session"},
	{"/sessions", "", "browse past sessions (Ctrl+O)"},
	{"/resume", "ID", "continue another session of this directory"},
	{"/model", "[COMMAND]", "configure, switch, list models (Tab completes)"},
	{"/mode", "MODE", "show or set the permission mode"},
	{"/cost", "", "tokens and cost of this session"},
	{"/compact", "FOCUS", "summarise the history to free context"},
	{"/init", "", "ask the model to write an AGENTS.md"},
	{"/quit", "", "quit"},
}

// runSlash runs a slash command; it reports whether the input box should be
// cleared (false for an unknown command, so it can be fixed). Event loop only.
func (w *Workbench) runSlash(line string) bool {
	fields := strings.Fields(line)
	cmd, args := fields[0], fields[1:]
	w.mu.Lock()
	be, running, status := w.be, w.running, w.model.Status
	w.mu.Unlock()
	needAgent := func() bool {
		switch {
		case be == nil:
			w.Notify("warning", "the store is still opening: try again in a moment")
		case running:
			w.Notify("warning", "a turn is running: wait for it, or press Esc to cancel it")
		default:
			return true
		}
		return false
	}
	switch cmd {
	case "/help":
		w.helpOpen, w.helpOffset = true, 0
	case "/quit", "/exit":
		w.stopAsync()
	case "/model":
		return w.modelCommand(args)
	case "/mode":
		return w.modeCommand(args)
	case "/cost":
		cost := fmt.Sprintf("$%.4f", status.CostUSD)
		if status.CostUnknown {
			cost = "unknown (the provider reported no price)"
		}
		w.Notify("info", fmt.Sprintf("%d turns · %s input, %s output, %s cached tokens · cost %s",
			status.Turns, humanTokens(status.InputTokens), humanTokens(status.OutputTokens),
			humanTokens(status.CacheReadTokens), cost))
	case "/clear":
		if !needAgent() {
			return false
		}
		w.goBackground(func() {
			id, err := be.NewSession(w.ctx, w.SessionID())
			if err != nil {
				w.Notify("error", "new session: "+err.Error())
				return
			}
			w.showSession(id, false)
			w.Notify("info", "new session "+id)
		})
	case "/sessions":
		w.openBrowser()
	case "/resume":
		if len(args) != 1 {
			w.Notify("warning", "usage: /resume ID (see /sessions)")
			return false
		}
		if !needAgent() {
			return false
		}
		w.goBackground(func() { w.resume(be, args[0]) })
	default:
		w.Notify("warning", "unknown command "+cmd+" (see /help)")
		return false
	}
	return true
}

// completeSlash completes a slash command being typed in the input box to
// the longest prefix its matches share; it reports whether it did anything
// (Tab then completes instead of moving the focus).
func (w *Workbench) completeSlash() bool {
	text := w.input.GetText()
	if !strings.HasPrefix(text, "/") || strings.ContainsAny(text, " \n") {
		return false
	}
	common := ""
	for _, c := range slashCommands {
		if !strings.HasPrefix(c.name, text) {
			continue
		}
		if common == "" {
			common = c.name
			continue
		}
		for !strings.HasPrefix(c.name, common) {
			common = common[:len(common)-1]
		}
	}
	if len(common) <= len(text) {
		return false
	}
	for _, c := range slashCommands {
		if c.name == common && c.args != "" {
			common += " "
		}
	}
	w.input.SetText(common, true)
	return true
}

// SessionID returns the live session: the one turns go to ("" before
// Attach). While another session is shown read-only it is still this one.
func (w *Workbench) SessionID() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.liveID
}

// workspaceRoot is where the workbench runs: Options.Cwd, else the live
// session's.
func (w *Workbench) workspaceRoot() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.rootLocked()
}

// rootLocked is workspaceRoot for a caller holding the mutex; "" while it is
// unknown (no Options.Cwd, another session shown read-only).
func (w *Workbench) rootLocked() string {
	if w.opts.Cwd != "" {
		return w.opts.Cwd
	}
	if !w.readOnly {
		return w.model.Status.Cwd
	}
	return ""
}

// resume switches to another session of this directory, found by its ID or a
// unique part of it (/resume ID).
func (w *Workbench) resume(be Backend, id string) {
	all, err := be.Sessions(w.ctx, 0)
	if err != nil {
		w.Notify("error", "sessions: "+err.Error())
		return
	}
	root := w.workspaceRoot()
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
		w.resumeSession(found[0].ID)
	default:
		w.Notify("warning", fmt.Sprintf("%q matches %d sessions: type more of the ID", id, len(found)))
	}
}

// resumeSession makes id the live session: the SessionEnd hooks of the one
// left, the SessionStart hooks ("resume") of this one, then its replay. Not
// on the event loop; the caller checked that no turn runs.
func (w *Workbench) resumeSession(id string) {
	w.mu.Lock()
	be, old := w.be, w.liveID
	w.mu.Unlock()
	if be == nil {
		return
	}
	be.Resume(w.ctx, old, id)
	w.showSession(id, false)
	w.Notify("info", "resumed session "+id)
}
