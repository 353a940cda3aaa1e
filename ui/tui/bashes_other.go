package tui

import (
	"fmt"
	"strings"

	"pincer/core/app"
	"pincer/ui/termtext"
)

// Background shells of the sessions the workbench does not show. A shell
// belongs to the process, as Claude Code's: a /clear (or /resume) leaves the
// session that started it, and the shell runs on until the workbench quits,
// so /bashes lists it too, named SESSION:ID (the session's short ID), which
// /bashes SESSION:ID and /bashes kill SESSION:ID take (new user r23 #3:
// after /clear nothing said they ran, and /bashes no longer showed them).

// liveShellLister is the part of a Backend that lists the background shells
// still running in every session of this process (app.Backend has it); it
// never waits on a shell, so the event loop calls it.
type liveShellLister interface {
	LiveShells() []app.LiveShell
}

// otherShells are the running background shells of the sessions other than
// the shown one (none without a liveShellLister).
func (w *Workbench) otherShells() []app.LiveShell {
	l, ok := w.be.(liveShellLister)
	if !ok {
		return nil
	}
	var out []app.LiveShell
	for _, s := range l.LiveShells() {
		if s.SessionID != w.liveID {
			out = append(out, s)
		}
	}
	return out
}

// qualifiedShellID is how /bashes names another session's shell:
// SHORT:bash_N, SHORT the session's short ID (shortID).
func qualifiedShellID(s app.LiveShell) string {
	return shortID(s.SessionID) + ":" + s.ShellID
}

// findOtherShell resolves a SESSION:ID of /bashes (SESSION the short or the
// full session ID) among shells; ok is false when arg names none.
func findOtherShell(shells []app.LiveShell, arg string) (app.LiveShell, bool) {
	sess, id, found := strings.Cut(arg, ":")
	if !found || sess == "" || id == "" {
		return app.LiveShell{}, false
	}
	for _, s := range shells {
		if s.ShellID == id && (s.SessionID == sess || shortID(s.SessionID) == sess) {
			return s, true
		}
	}
	return app.LiveShell{}, false
}

// otherShellLines renders /bashes' part for the other sessions' running
// shells (pure): nothing when there are none; else a heading and one line
// each, "  SESSION:ID  running  COMMAND  (WHERE)", where is "tab N" for a
// session an open tab shows, else that no tab shows it.
func otherShellLines(shells []app.LiveShell, tabOf func(sessionID string) int) []string {
	if len(shells) == 0 {
		return nil
	}
	lines := []string{"", "Still running in other sessions of this workbench (they end when it quits; /bashes kill SESSION:ID ends one)"}
	for _, s := range shells {
		where := "no tab shows its session (left by /clear or /resume)"
		if n := tabOf(s.SessionID); n > 0 {
			where = fmt.Sprintf("tab %d", n)
		}
		lines = append(lines, fmt.Sprintf("  %-17s %-22s %s   (%s)", termtext.Line(qualifiedShellID(s)), "running",
			termtext.Line(strings.TrimSpace(s.Command)), where))
	}
	return lines
}

// tabOfSession is the number (from 1) of the open tab whose live session is
// id, 0 when none.
func (w *Workbench) tabOfSession(id string) int {
	for i, t := range w.tabs {
		if t.liveID == id {
			return i + 1
		}
	}
	return 0
}

// runningIn is how many background shells of session id run (0 without
// a liveShellLister); any goroutine may call it.
func runningIn(be Backend, id string) int {
	l, ok := be.(liveShellLister)
	if !ok {
		return 0
	}
	n := 0
	for _, s := range l.LiveShells() {
		if s.SessionID == id {
			n++
		}
	}
	return n
}

// stillRunningNote is what /clear and /resume add to their notice when the
// session they leave has n background shells running: they run on, and
// /bashes shows them.
func stillRunningNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("; %s of the previous session still running (see /bashes)", plural(n, "background shell"))
}

// plural is "1 NOUN" or "N NOUNs".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
