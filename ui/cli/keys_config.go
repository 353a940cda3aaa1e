package cli

import (
	"pincer/core/config"
	"pincer/ui/tui"
)

// loadKeyMap builds the workbench's key map: the defaults, overridden by the [keys]
// table of the user's config.toml, as core/config read it (a project's [keys]
// is a warning and not applied: config.Sources.Keys):
//
//	[keys]
//	send = "enter"
//	newline = "shift+enter ctrl+j"
//	"mode.cycle" = "ctrl+t"
//
// (action names are those of `?` help). A bad table or entry is a warning naming
// it; the others still apply.
func loadKeyMap(src *config.Sources) (*tui.KeyMap, []string) {
	km := tui.DefaultKeyMap()
	tables, errs := src.Keys()
	var warnings []string
	for _, err := range errs {
		warnings = append(warnings, err.Error())
	}
	for _, t := range tables {
		warnings = append(warnings, km.Apply(t.Path, t.Bindings)...)
	}
	return km, warnings
}
