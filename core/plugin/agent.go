package plugin

import (
	"path/filepath"
	"strings"

	"pincer/core/frontmatter"
	"pincer/core/smallfile"
)

// maxAgentFile is the largest agent definition read (bytes).
const maxAgentFile = 1 << 20

// agentFront is an agent file's frontmatter (Claude Code's subagent fields;
// tools and model are kept for the subagents to come).
type agentFront struct {
	Name        string           `yaml:"name"`
	Description string           `yaml:"description"`
	Tools       frontmatter.List `yaml:"tools"`
	Model       string           `yaml:"model"`
}

// readAgent reads one agents/*.md: its frontmatter through core/frontmatter
// (a file that does not parse is an error: the plugin contributes nothing).
func readAgent(path, realRoot string) (Agent, error) {
	if _, err := regularInside(path, realRoot); err != nil {
		return Agent{}, err
	}
	data, err := smallfile.Place{Root: realRoot}.Read(path, maxAgentFile) // the one reader: stays inside the plugin, no kernel file
	if err != nil {
		return Agent{}, err
	}
	doc, err := frontmatter.Parse(path, data)
	if err != nil {
		return Agent{}, err
	}
	var f agentFront
	if err := doc.Decode(&f); err != nil {
		return Agent{}, err
	}
	a := Agent{Name: f.Name, Description: f.Description, Path: path}
	if a.Name == "" {
		a.Name = strings.TrimSuffix(filepath.Base(path), ".md")
	}
	if err := ValidName(a.Name); err != nil {
		return Agent{}, doc.Errorf("name", "agent %v", err)
	}
	return a, nil
}
