package tui

import (
	"fmt"
	"strings"

	"pincer/persist"
)

// slashCommand is a command typed in the input box.
type slashCommand struct{ name, args, help string }

// slashCommands are the input box's commands; the help bar completes them as
// they are typed.
var slashCommands = []slashCommand{
	{"/help", "", "keys and commands"},
	{"/clear", "", "start a new session"},
	{"/sessions", "", "recent sessions of this directory"},
	{"/resume", "ID", "open (and continue) another session here"},
	{"/model", "", "the model in use"},
	{"/mode", "", "the permission mode"},
	{"/cost", "", "tokens and cost of this session"},
	{"/quit", "", "quit"},
}

// runSlash runs a slash command; it reports whether the input box should be
// cleared (false for an unknown command, so it can be fixed). Event loop only.
func (w *Workbench) runSlash(line string) bool {
	fields := strings.Fields(line)
	cmd, args := fields[0], fields[1:]
	w.mu.Lock()
	ag, running, status := w.ag, w.running, w.model.Status
	w.mu.Unlock()
	needAgent := func() bool {
		switch {
		case ag == nil:
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
		model := status.Model
		if model == "" {
			model = w.opts.Model
		}
		w.Notify("info", "model: "+model+" (start pincer with --model to use another)")
	case "/mode":
		w.Notify("info", "permission mode: "+w.opts.Mode+" (start pincer with --permission-mode to change it)")
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
			old := w.SessionID()
			s, err := ag.CreateSession(w.ctx)
			if err != nil {
				w.Notify("error", "new session: "+err.Error())
				return
			}
			ag.EndSession(w.ctx, old, "clear")
			ag.StartSession(w.ctx, s.ID, "clear")
			w.showSession(s.ID)
			w.Notify("info", "new session "+s.ID)
		})
	case "/sessions":
		if ag == nil {
			w.Notify("warning", "the store is still opening: try again in a moment")
			return false
		}
		w.goBackground(func() { w.listSessions(ag.Store()) })
	case "/resume":
		if len(args) != 1 {
			w.Notify("warning", "usage: /resume ID (see /sessions)")
			return false
		}
		if !needAgent() {
			return false
		}
		w.goBackground(func() { w.resume(ag.Store(), args[0]) })
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

// SessionID returns the session the workbench shows ("" before Attach).
func (w *Workbench) SessionID() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.sessionID
}

// workspaceRoot is where the workbench runs: Options.Cwd, else the session's.
func (w *Workbench) workspaceRoot() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.opts.Cwd != "" {
		return w.opts.Cwd
	}
	return w.model.Status.Cwd
}

// sessionsHere returns the sessions of this directory, newest first.
func (w *Workbench) sessionsHere(store persist.Store) ([]persist.Session, error) {
	all, err := store.ListSessions(w.ctx, 0)
	if err != nil {
		return nil, err
	}
	root := w.workspaceRoot()
	var out []persist.Session
	for _, s := range all {
		if root == "" || s.Cwd == root {
			out = append(out, s)
		}
	}
	return out, nil
}

// listSessions adds the ten newest sessions of this directory to the
// transcript as a notice.
func (w *Workbench) listSessions(store persist.Store) {
	list, err := w.sessionsHere(store)
	if err != nil {
		w.Notify("error", "sessions: "+err.Error())
		return
	}
	lines := []string{fmt.Sprintf("%d sessions in this directory, newest first (/resume ID opens one):", len(list))}
	for i, s := range list {
		if i == 10 {
			break
		}
		title := s.Title
		if title == "" {
			title = "(untitled)"
		}
		lines = append(lines, fmt.Sprintf("  %s  %s  %s  %s", s.ID, s.UpdatedAt.Local().Format("2006-01-02 15:04"), s.Model, firstLine(title)))
	}
	w.mu.Lock()
	w.noteLocked(strings.Join(lines, "\n"))
	w.mu.Unlock()
	w.pump.markDirty()
}

// resume switches to another session of this directory, found by its ID or a
// unique part of it.
func (w *Workbench) resume(store persist.Store, id string) {
	list, err := w.sessionsHere(store)
	if err != nil {
		w.Notify("error", "sessions: "+err.Error())
		return
	}
	var found []persist.Session
	for _, s := range list {
		if s.ID == id {
			found = []persist.Session{s}
			break
		}
		if strings.Contains(s.ID, id) {
			found = append(found, s)
		}
	}
	switch len(found) {
	case 0:
		w.Notify("warning", "no session "+id+" in this directory (see /sessions)")
	case 1:
		w.showSession(found[0].ID)
		w.Notify("info", "resumed session "+found[0].ID)
	default:
		w.Notify("warning", fmt.Sprintf("%q matches %d sessions: type more of the ID", id, len(found)))
	}
}
