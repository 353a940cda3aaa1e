package app

import (
	"os"
	"path/filepath"

	"pincer/core/config"
	"pincer/core/skill"
	"pincer/tools"
)

// turnTools are the tools a person's invocation of sk adds to its turn
// (agent.TurnInput.Tools): ConfigEdit for the built-in /update-config, and
// nothing for anything else — a skill or command of the same name from a
// plugin, the user or the project never gets it (built-ins win the name,
// and the origin is checked besides).
func (s *Setup) turnTools(sk skill.Skill) []tools.Tool {
	if sk.Origin != skill.OriginBuiltin || sk.Name != "update-config" {
		return nil
	}
	return []tools.Tool{tools.Typed[tools.ConfigEditInput](configEditFor(config.PathsFrom(os.Getenv), s.Workspace.Root()))}
}

// configEditFor is ConfigEdit over the config sources of workspace under
// paths (config.SourcesFor: the files /update-config shows), each checked
// after a write by reading it back as pincer reads it at start
// (config.ReadSources: a project file that became a link out of the
// workspace, a key twice, a syntax error — FILE:LINE).
func configEditFor(paths config.Paths, workspace string) tools.ConfigEdit {
	srcs := config.SourcesFor(paths, workspace)
	ce := tools.ConfigEdit{}
	for _, src := range srcs {
		ce.Files = append(ce.Files, filepath.Clean(src.Path))
	}
	ce.Check = func(path string) error {
		for _, src := range srcs {
			if filepath.Clean(src.Path) != path {
				continue
			}
			if d := config.ReadSources([]config.Source{src}, workspace).Docs[0]; d.Err != nil {
				return d.Err
			}
			return nil
		}
		return nil
	}
	return ce
}
