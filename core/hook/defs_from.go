package hook

import (
	"fmt"

	"pincer/core/config"
)

// DefsFrom validates the hook tables core/config read (Sources.Hooks: the user
// config, ~/.claude/settings.json, .pincer/config.toml, .claude/settings.json,
// .claude/settings.local.json, in that order) into definitions by event, each
// marked Project when its file comes with the workspace (see trust.go). Pass
// them to NewRunner.
//
// Every problem is a *config.FileError naming the file and the line of the hook,
// fatal — a file that does not validate contributes no hooks, and a PreToolUse
// hook may be what stands between the model and a command (issue 10, class 13) —
// except a Claude Code hook type pincer does not run ("prompt"), skipped with a
// warning as Claude Code's older versions skip it. An unknown event is an error
// in config.toml (pincer's own format, so a typo) and ignored in Claude Code's
// files (Claude Code has many more events than pincer fires).
func DefsFrom(tables []config.HookTable) (map[Event][]Def, []error) {
	defs := map[Event][]Def{}
	var errs []error
	for _, t := range tables {
		for _, h := range t.Hooks {
			ev := Event(h.Event)
			fail := func(warning bool, err error) {
				errs = append(errs, &config.FileError{Path: t.Path, Line: h.Line, Key: h.Where, Err: fmt.Errorf("%s: %w", h.Where, err), Warning: warning})
			}
			if !ev.Valid() {
				if t.Format == config.TOML {
					errs = append(errs, &config.FileError{Path: t.Path, Line: h.Line, Key: "hooks." + h.Event,
						Err: fmt.Errorf("hooks.%s: unknown hook event (want one of %v)", h.Event, Events)})
				}
				continue
			}
			if t.Format == config.JSON && h.Type != "command" {
				fail(true, fmt.Errorf("hook type %q is not supported by pincer (only \"command\"); skipped", h.Type))
				continue
			}
			d, err := newDef(h.Matcher, h.Command, h.Timeout, t.Path)
			if err != nil {
				fail(false, err)
				continue
			}
			d.Project, d.Origin = t.Project, t.Origin
			defs[ev] = append(defs[ev], d)
		}
	}
	return defs, dedupeEvents(errs)
}

// dedupeEvents keeps one unknown-event error per file and event (each of its
// [[hooks.EVENT]] tables would otherwise report it).
func dedupeEvents(errs []error) []error {
	var out []error
	seen := map[string]bool{}
	for _, err := range errs {
		if fe, ok := err.(*config.FileError); ok && fe.Key != "" && !fe.Warning {
			k := fe.Path + "\x00" + fe.Key
			if seen[k] {
				continue
			}
			seen[k] = true
		}
		out = append(out, err)
	}
	return out
}
