package hook

import (
	"os"

	"pincer/core/config"
)

// Source is one file for LoadSources, the way these tests list them.
type Source struct {
	Path    string
	Format  Format
	Project bool
}

// Format is a Source's syntax.
type Format int

// The formats: pincer's config.toml, Claude Code's settings.json.
const (
	FormatTOML Format = iota
	FormatClaude
)

// Load reads the hooks of projectDir as pincer does (pincerHome as
// $PINCER_HOME; "" leaves the environment's): core/config reads the files,
// DefsFrom validates them, NewRunner compiles them.
func Load(projectDir, pincerHome string) (*Runner, []error) {
	paths := config.PathsFrom(func(k string) string {
		if k == "PINCER_HOME" && pincerHome != "" {
			return pincerHome
		}
		return os.Getenv(k)
	})
	return runnerOf(projectDir, config.Read(paths, projectDir))
}

// LoadSources is Load of an explicit file list.
func LoadSources(projectDir string, srcs []Source) (*Runner, []error) {
	var list []config.Source
	for _, s := range srcs {
		c := config.Source{Path: s.Path, Name: s.Path, Project: s.Project}
		switch {
		case s.Format == FormatTOML && s.Project:
			c.Kind, c.Format = config.ProjectConfig, config.TOML
		case s.Format == FormatTOML:
			c.Kind, c.Format = config.UserConfig, config.TOML
		case s.Project:
			c.Kind, c.Format = config.ProjectClaude, config.JSON
		default:
			c.Kind, c.Format = config.UserClaude, config.JSON
		}
		list = append(list, c)
	}
	return runnerOf(projectDir, config.ReadSources(list, projectDir))
}

func runnerOf(projectDir string, src *config.Sources) (*Runner, []error) {
	tables, errs := src.Hooks()
	defs, derrs := DefsFrom(tables)
	r, rerrs := NewRunner(defs, projectDir)
	return r, append(append(append(src.Errors(), errs...), derrs...), rerrs...)
}

// Fatal is config.Fatal.
func Fatal(errs []error) []error { return config.Fatal(errs) }

// FileError is config.FileError.
type FileError = config.FileError
