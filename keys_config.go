package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/pelletier/go-toml/v2"

	"pincer/core/permission"
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
	var warnings []string
	for _, path := range []string{permission.UserConfigPath(os.Getenv("PINCER_HOME")), filepath.Join(workspace, ".pincer", "config.toml")} {
		if path == "" {
			continue
		}
		data, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		var file struct {
			Keys map[string]string `toml:"keys"`
		}
		if err == nil {
			err = toml.Unmarshal(data, &file)
		}
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: [keys] not applied: %s", path, oneLineErr(err)))
			continue
		}
		actions := make([]string, 0, len(file.Keys))
		for a := range file.Keys {
			actions = append(actions, a)
		}
		sort.Strings(actions)
		for _, a := range actions {
			if err := km.Override(a, file.Keys[a]); err != nil {
				warnings = append(warnings, fmt.Sprintf("%s: [keys] %s: %v", path, a, err))
			}
		}
	}
	return km, warnings
}
