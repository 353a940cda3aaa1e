package cli

import (
	"fmt"
	"sort"

	"pincer/core/app"
	"pincer/ui/tui"
)

// loadKeyMap builds the workbench's key map: the defaults, overridden by the [keys]
// table of the user's config.toml, then the project's .pincer/config.toml:
//
//	[keys]
//	send = "enter"
//	newline = "shift+enter ctrl+j"
//	"mode.cycle" = "ctrl+t"
//
// (action names are those of `?` help). A bad file or entry is a warning naming it;
// the others still apply.
func loadKeyMap(workspace string) (*tui.KeyMap, []string) {
	km := tui.DefaultKeyMap()
	type file struct {
		Keys map[string]string `toml:"keys"`
	}
	var bad []string
	warnings := app.ConfigTables(workspace, "keys", func(path string, f file) {
		actions := make([]string, 0, len(f.Keys))
		for a := range f.Keys {
			actions = append(actions, a)
		}
		sort.Strings(actions)
		for _, a := range actions {
			if err := km.Override(a, f.Keys[a]); err != nil {
				bad = append(bad, fmt.Sprintf("%s: [keys] %s: %v", path, a, err))
			}
		}
	})
	warnings = append(warnings, bad...)
	return km, warnings
}
