package subagent

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"pincer/core/permission"
	"pincer/core/smallfile"
)

// Plugin is one enabled plugin's contribution: its name (the namespace: its
// agents are PLUGIN:name, as Claude Code's plugin agents), its root (where
// its files may lead) and its agent files (core/plugin's Agents' paths).
type Plugin struct {
	Name, Root string
	Files      []string
}

// Dirs are the places Discover reads, in precedence order: the built-ins,
// then the project's, the user's and the plugins' (Claude Code's order:
// project over user over plugin). DirsFor fills the directories.
type Dirs struct {
	Builtin []Definition // Builtins()
	// Project: the workspace's .claude/agents; User: ~/.claude/agents and
	// pincer's config dir's agents/.
	Project, User []string
	Plugins       []Plugin // enabled plugins, in the order they are listed
	// ProjectPlace is where a project's files may lead (inside the
	// workspace, never a hidden location: permission.ProjectFiles);
	// UserPlace the user's (anywhere but a hidden location or a kernel file:
	// permission.UserFiles). A plugin's files stay inside its root.
	ProjectPlace, UserPlace smallfile.Place
}

// DirsFor is Dirs for a workspace root, a home directory and pincer's config
// directory (core/config Paths.Config), with the built-ins; "" leaves a
// layer's directories out. Plugins are the caller's to add.
func DirsFor(root, home, configDir string) Dirs {
	d := Dirs{Builtin: Builtins(), UserPlace: permission.UserFiles(home), ProjectPlace: permission.ProjectFiles(root, home)}
	if root == "" {
		d.ProjectPlace = d.UserPlace
	} else {
		d.Project = []string{filepath.Join(root, ".claude", "agents")}
	}
	if home != "" {
		d.User = append(d.User, filepath.Join(home, ".claude", "agents"))
	}
	if configDir != "" {
		d.User = append(d.User, filepath.Join(configDir, "agents"))
	}
	return d
}

// Discover reads every layer of d into a Catalog: built-ins first (a file
// named as a built-in, in any case, is passed over: "Explore" stays the
// read-only one the parent's model expects), then project, user and plugin
// definitions, the first of a name winning. A missing directory is no
// problem; an unreadable or unparsable file is one (Catalog.Problems, FILE:LINE)
// and contributes nothing. Only a directory's own *.md files are read (no
// subdirectories, no hidden files, links to directories not followed); a file
// may itself be a link, read only where its layer's place lets it lead.
func Discover(d Dirs) *Catalog {
	c := NewCatalog(d.Builtin...)
	for _, dir := range d.Project {
		c.layer(agentFiles(dir, c), OriginProject, "", d.ProjectPlace)
	}
	for _, dir := range d.User {
		c.layer(agentFiles(dir, c), OriginUser, "", d.UserPlace)
	}
	for _, p := range d.Plugins {
		root := p.Root
		if r, err := filepath.EvalSymlinks(root); err == nil {
			root = r
		}
		files := append([]string(nil), p.Files...)
		sort.Strings(files)
		c.layer(files, PluginOrigin(p.Name), p.Name+":", smallfile.Place{Root: root})
	}
	return c
}

// layer loads files as definitions of origin through place.
func (c *Catalog) layer(files []string, origin Origin, prefix string, place smallfile.Place) {
	for _, f := range files {
		def, err := Load(place, f, origin, prefix)
		if err != nil {
			c.Problems = append(c.Problems, Problem{File: f, Err: err})
			continue
		}
		c.add(def)
	}
}

// agentFiles lists dir's *.md entries that are not hidden, sorted.
func agentFiles(dir string, c *Catalog) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			c.Problems = append(c.Problems, Problem{File: dir, Err: err})
		}
		return nil
	}
	var out []string
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || strings.HasPrefix(n, ".") || !strings.HasSuffix(n, ".md") {
			continue
		}
		out = append(out, filepath.Join(dir, n))
	}
	sort.Strings(out)
	return out
}
