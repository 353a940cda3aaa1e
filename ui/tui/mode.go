package tui

import (
	"strings"

	"pincer/core/permission"
)

// modeCycle is the order Shift+Tab (in the input box) and Ctrl+T step through
// the permission modes, as Claude Code's; bypassPermissions only when the
// workbench allows it (Options.AllowBypass). dontAsk is for headless runs: it
// can be set with /mode, and the next step from it is default.
var modeCycle = []permission.Mode{permission.ModeDefault, permission.ModeAcceptEdits, permission.ModePlan, permission.ModeAuto, permission.ModeBypass}

// nextMode returns the mode after m in modeCycle, skipping bypassPermissions
// unless allowBypass (default after any mode not in it).
func nextMode(m permission.Mode, allowBypass bool) permission.Mode {
	cycle := modeCycle
	if !allowBypass {
		cycle = cycle[:len(cycle)-1]
	}
	for i, c := range cycle {
		if c == m {
			return cycle[(i+1)%len(cycle)]
		}
	}
	return permission.ModeDefault
}

// bypassRefused is why /mode bypassPermissions is refused in a workbench
// that does not allow it.
const bypassRefused = "bypassPermissions is off in this workbench: start pincer with --allow-dangerously-skip-permissions (or --permission-mode bypassPermissions) to allow it"

// modeHelp says in a few words what a mode does, for the notice shown when it
// changes.
func modeHelp(m permission.Mode) string {
	switch m {
	case permission.ModeDefault:
		return "edits and commands ask first"
	case permission.ModeAcceptEdits:
		return "edits in the workspace run without asking"
	case permission.ModePlan:
		return "read-only: edits and commands are refused"
	case permission.ModeBypass:
		return "nothing asks; deny rules and the sandbox still hold"
	case permission.ModeDontAsk:
		return "whatever would ask is refused"
	case permission.ModeAuto:
		return "commands no rule decides go to the classifier; its allow runs them (none configured: as default)"
	}
	return ""
}

// cycleMode moves to the next permission mode. Event loop only (two
// concurrent cycles could both step from the same mode).
func (w *Workbench) cycleMode() { w.setMode(nextMode(permission.Mode(w.mode), w.opts.AllowBypass)) }

// setMode changes the permission mode: the backend's at once (running turns
// decide their next tool calls with it; a mode.changed event on the live
// session records it, one event append), and the status line's. Before the
// backend is attached the choice is kept and handed to it by Attach.
func (w *Workbench) setMode(m permission.Mode) {
	w.mode, w.modeSet = string(m), true
	be, live := w.be, w.liveID
	var err error
	if be != nil { // else Attach hands it over
		err = be.SetMode(w.ctx, live, m)
	}
	if err != nil {
		w.Notify("error", "permission mode "+string(m)+" is in force, but the event log: "+err.Error())
		return
	}
	w.hint("permission mode: " + string(m) + " — " + modeHelp(m)) // the log's mode.changed puts it in the transcript
}

// modeCommand is /mode [MODE]: without an argument it shows the mode, with
// one it sets it (any mode permission.ParseMode accepts). It reports whether
// the input box should be cleared.
func (w *Workbench) modeCommand(args []string) bool {
	if len(args) == 0 {
		m := permission.Mode(w.mode)
		names := make([]string, len(permission.Modes))
		for i, x := range permission.Modes {
			names[i] = string(x)
		}
		w.Notify("info", "permission mode: "+string(m)+" — "+modeHelp(m)+" (/mode "+strings.Join(names, "|")+"; Shift+Tab cycles)")
		return true
	}
	if len(args) > 1 {
		w.Notify("warning", "usage: /mode [MODE]")
		return false
	}
	m, err := permission.ParseMode(args[0])
	if err != nil {
		w.Notify("warning", "/mode: "+err.Error())
		return false
	}
	if m == permission.ModeBypass && !w.opts.AllowBypass {
		w.Notify("warning", "/mode: "+bypassRefused)
		return false
	}
	w.setMode(m)
	return true
}
