package app

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/pelletier/go-toml/v2"

	"pincer/core/permission"
)

// ConfigTables decodes one table of pincer's config files into T, from the user's
// config.toml then the project's .pincer/config.toml (later files win where the
// caller applies them in order), calling apply for each file that has it. A file
// that cannot be read or decoded is not applied and is returned as a message
// naming it and the table; it is also recorded as a fatal configuration problem
// (tableFailures): the table may hold safety settings ([sandbox]), and pincer
// fails closed rather than run without them. F is the file's struct with the one
// table in it.
func ConfigTables[F any](workspace, table string, apply func(path string, file F)) []string {
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
			msg := fmt.Sprintf("%s: [%s] not applied: %s", path, table, oneLineErr(err))
			var de *toml.DecodeError
			if errors.As(err, &de) {
				row, _ := de.Position()
				msg = fmt.Sprintf("%s:%d: [%s] not applied: %s", path, row, table, de.Error())
			}
			warnings = append(warnings, msg)
			recordTableFailure(msg)
			continue
		}
		apply(path, file)
	}
	return warnings
}

// tableFailures are the messages of config tables that could not be applied in
// this process, for checkConfig; tableMu guards them.
var (
	tableMu       sync.Mutex
	tableFailures []string
)

func recordTableFailure(msg string) {
	tableMu.Lock()
	defer tableMu.Unlock()
	for _, m := range tableFailures {
		if m == msg {
			return
		}
	}
	tableFailures = append(tableFailures, msg)
}

// takeTableFailures returns the recorded table failures and forgets them.
func takeTableFailures() []string {
	tableMu.Lock()
	defer tableMu.Unlock()
	out := tableFailures
	tableFailures = nil
	return out
}
