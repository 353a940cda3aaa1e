package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pelletier/go-toml/v2"

	"pincer/core/permission"
)

// configTables decodes one table of pincer's config files into T, from the user's
// config.toml then the project's .pincer/config.toml (later files win where the
// caller applies them in order), calling apply for each file that has it. A file that
// cannot be read or decoded is a warning naming it and the table; the others still
// apply. F is the file's struct with the one table in it.
func configTables[F any](workspace, table string, apply func(path string, file F)) []string {
	var warnings []string
	for _, path := range []string{permission.UserConfigPath(os.Getenv("PINCER_HOME")), filepath.Join(workspace, ".pincer", "config.toml")} {
		if path == "" {
			continue
		}
		data, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		var file F
		if err == nil {
			err = toml.Unmarshal(data, &file)
		}
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: [%s] not applied: %s", path, table, oneLineErr(err)))
			continue
		}
		apply(path, file)
	}
	return warnings
}
