package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/pelletier/go-toml/v2"

	"pincer/sandbox"
)

// sandboxSettings is the [sandbox] table of pincer's config files:
//
//	[sandbox]
//	enabled = true            # false: no Landlock, namespaces or limits (env allowlist stays)
//	network = false           # cut the network of commands (a network namespace)
//	writable_roots = ["~/scratch"]
//	env_allow = ["AWS_PROFILE", "MY_*"]
//	require_landlock = true   # refuse to run commands where Landlock is unavailable
//
// The user file is read first, then the project's .pincer/config.toml; a key set in
// a later file wins.
type sandboxSettings struct {
	Enabled         *bool    `toml:"enabled"`
	Network         *bool    `toml:"network"`
	WritableRoots   []string `toml:"writable_roots"`
	EnvAllow        []string `toml:"env_allow"`
	RequireLandlock *bool    `toml:"require_landlock"`
}

// loadSandboxPolicy builds the Bash tool's sandbox policy from the defaults, the
// config files (a bad file is a warning naming it; the others still apply) and
// --no-sandbox. nil means no OS sandbox.
func loadSandboxPolicy(workspace string, noSandbox bool, stderr io.Writer) *sandbox.Policy {
	p := sandbox.DefaultPolicy()
	home, _ := os.UserHomeDir()
	type file struct {
		Sandbox sandboxSettings `toml:"sandbox"`
	}
	warns := configTables(workspace, "sandbox", func(_ string, f file) {
		s := f.Sandbox
		if s.Enabled != nil {
			p.Enabled = *s.Enabled
		}
		if s.Network != nil {
			p.Network = *s.Network
		}
		if s.RequireLandlock != nil {
			p.RequireLandlock = *s.RequireLandlock
		}
		for _, r := range s.WritableRoots {
			if len(r) > 1 && r[:2] == "~/" && home != "" {
				r = filepath.Join(home, r[2:])
			}
			p.WritableRoots = append(p.WritableRoots, r)
		}
		p.EnvAllow = append(p.EnvAllow, s.EnvAllow...)
	})
	for _, w := range warns {
		fmt.Fprintf(stderr, "pincer: warning: %s\n", w)
	}
	if noSandbox || !p.Enabled {
		return nil
	}
	return &p
}

// oneLineErr flattens an error (a TOML decode error spans lines) to one line, with
// the position go-toml reports.
func oneLineErr(err error) string {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		return fmt.Sprintf("line %d, column %d: %s", row, col, de.Error())
	}
	return err.Error()
}
