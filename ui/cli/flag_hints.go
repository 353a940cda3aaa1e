package cli

import (
	"strings"

	"pincer/core/permission"
)

// claudeFlagHints maps Claude Code flags pincer does not take (as the flag
// package names them in "flag provided but not defined: -NAME") to pincer's
// equivalent, for a person who types them from habit.
var claudeFlagHints = map[string]string{
	"resume":                       "pincer continues a session with --session ID (IDs: pincer sessions), or the latest with -c / --continue",
	"r":                            "pincer continues a session with --session ID (IDs: pincer sessions), or the latest with -c / --continue",
	"dangerously-skip-permissions": "pincer's equivalent is --permission-mode bypassPermissions",
	"print":                        "pincer takes -p PROMPT, or pincer run PROMPT",
}

// flagError is the usage error of a flag parse error msg: msg, with the hint of
// claudeFlagHints when the unknown flag is Claude Code's.
func flagError(msg string) error {
	const unknown = "flag provided but not defined: -"
	if name, ok := strings.CutPrefix(msg, unknown); ok {
		if hint, ok := claudeFlagHints[strings.TrimPrefix(name, "-")]; ok {
			msg += " (" + hint + ")"
		}
	}
	return usageError{Msg: msg}
}

// modeNames is the --permission-mode choices for a flag's help, from
// permission.Modes: "default | acceptEdits | ...".
func modeNames() string {
	names := make([]string, len(permission.Modes))
	for i, m := range permission.Modes {
		names[i] = string(m)
	}
	return strings.Join(names, " | ")
}
