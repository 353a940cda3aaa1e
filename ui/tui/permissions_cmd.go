package tui

import (
	"context"
	"fmt"
	"strings"

	"pincer/core/permission"
	"pincer/ui/termtext"
)

// permissionsBackend is the part of a Backend /permissions needs
// (app.Backend has it).
type permissionsBackend interface {
	PermissionRules(ctx context.Context, sessionID string) (permission.RuleSet, []error)
	AddSessionRule(ctx context.Context, sessionID, behavior, rule string) (permission.Rule, error)
	RemoveSessionRule(ctx context.Context, sessionID, behavior, rule string) (permission.Rule, error)
}

// permissionsUsage is /permissions' usage line.
const permissionsUsage = "usage: /permissions (list), /permissions allow|ask|deny RULE (add one for this session), /permissions remove allow|ask|deny RULE"

// slashPermissions is /permissions, as Claude Code's: alone, the mode and
// every rule in force with where it comes from (a file, a flag, this
// session); "allow|ask|deny RULE" adds a rule for this session (from its
// next turn; the person's own, as an approval "for this session");
// "remove allow|ask|deny RULE" takes a session rule out. A file's rules are
// changed in the file (/config lists them). Off the event loop: the rules
// are read from the store.
func (w *Workbench) slashPermissions(args []string) bool {
	pb, ok := w.be.(permissionsBackend)
	id := w.liveID
	if !ok || id == "" {
		w.Notify("warning", "the store is still opening: try again in a moment")
		return false
	}
	mode := w.mode
	switch {
	case len(args) == 0:
		w.goBackground(func() {
			rs, errs := pb.PermissionRules(w.ctx, id)
			lines := permissionLines(mode, rs, errs)
			w.pump.post(func() { w.showTopic(lines) })
		})
		return true
	case len(args) >= 2 && isBehavior(args[0]):
		b, rule := args[0], strings.Join(args[1:], " ")
		w.goBackground(func() {
			r, err := pb.AddSessionRule(w.ctx, id, b, rule)
			if err != nil {
				w.Notify("error", "/permissions: "+err.Error())
				return
			}
			w.Notify("info", fmt.Sprintf("added the %s rule %s for this session (from its next turn; /permissions lists the rules, /permissions remove %s %s takes it out)", b, r, b, r))
		})
		return true
	case len(args) >= 3 && args[0] == "remove" && isBehavior(args[1]):
		b, rule := args[1], strings.Join(args[2:], " ")
		w.goBackground(func() {
			r, err := pb.RemoveSessionRule(w.ctx, id, b, rule)
			if err != nil {
				w.Notify("error", "/permissions: "+termtext.Line(rule)+": "+err.Error()+" (a file's rule is removed in its file: /config lists them)")
				return
			}
			w.Notify("info", fmt.Sprintf("removed the session's %s rule %s (from its next turn)", b, r))
		})
		return true
	}
	w.Notify("warning", permissionsUsage)
	return false
}

// isBehavior reports whether s names a rule list.
func isBehavior(s string) bool {
	return s == string(permission.Allow) || s == string(permission.Ask) || s == string(permission.Deny)
}

// permissionLines renders /permissions (pure): the mode, then the deny, ask
// and allow rules (the order they are decided in: deny beats ask beats
// allow) each with its source and, for a repository's file, that it is the
// repository's; then the problems.
func permissionLines(mode string, rs permission.RuleSet, errs []error) []string {
	lines := []string{"Permissions — Esc closes, j/k scroll", "",
		"  mode: " + mode + "  (Shift+Tab cycles; /mode MODE sets it)", ""}
	for _, l := range []struct {
		name  string
		rules []permission.Rule
	}{{"deny", rs.Deny}, {"ask", rs.Ask}, {"allow", rs.Allow}} {
		// A rule both a file and the session hold (an "always" approval,
		// read back from .pincer/settings.local.toml after --continue) is
		// one line, not two (new user r24 #8).
		inFile := map[string]bool{}
		for _, r := range l.rules {
			if r.Source != permission.SessionSource {
				inFile[r.String()] = true
			}
		}
		inSession := map[string]bool{}
		for _, r := range l.rules {
			if r.Source == permission.SessionSource {
				inSession[r.String()] = true
			}
		}
		var shown []string
		for _, r := range l.rules {
			src := ruleSourceText(r)
			switch {
			case r.Source == permission.SessionSource && inFile[r.String()]:
				continue
			case r.Source != permission.SessionSource && inSession[r.String()]:
				src = strings.TrimSuffix(src, ")") + "; also approved for this session)"
			}
			shown = append(shown, "    "+termtext.Line(r.String())+"    "+src)
		}
		lines = append(lines, fmt.Sprintf("  %s (%d)", l.name, len(shown)))
		if len(shown) == 0 {
			lines = append(lines, "    none")
		}
		lines = append(lines, shown...)
		lines = append(lines, "")
	}
	for _, err := range errs {
		lines = append(lines, "  problem: "+termtext.Line(err.Error()))
	}
	return append(lines,
		"  Deny beats ask beats allow. /permissions allow|ask|deny RULE adds one for this session;",
		"  /permissions remove allow|ask|deny RULE takes a session rule out; a file's rules change in the file (/config).")
}

// ruleSourceText is where a rule comes from, as /permissions shows it.
func ruleSourceText(r permission.Rule) string {
	switch {
	case r.Source == permission.SessionSource:
		return "(this session)"
	case r.Source == "":
		return "(built in)"
	case r.Project:
		return "(" + termtext.Line(r.Source) + ", the repository's)"
	}
	return "(" + termtext.Line(r.Source) + ")"
}
