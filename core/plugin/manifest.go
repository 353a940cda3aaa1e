package plugin

import (
	"fmt"
	"path/filepath"
	"strings"

	"pincer/core/config"
)

// ManifestPaths are where a plugin's manifest may be, relative to its root,
// in the order looked at: Claude Code's place, then the root.
var ManifestPaths = []string{filepath.Join(".claude-plugin", "plugin.json"), "plugin.json"}

// Manifest is a plugin's plugin.json (Claude Code's fields). Only Name is
// required. The component lists are the manifest's own paths (relative to the
// root, as written); the default locations are added by Load.
type Manifest struct {
	// Path is the manifest file.
	Path                              string
	Name, Version, Description        string
	Author                            Author
	Homepage, Repository, License     string
	Keywords                          []string
	Commands, Agents, Skills          []string // "commands", "agents", "skills": a path or a list of paths
	Hooks, MCPServers, LSPServers     []string // "hooks", "mcpServers", "lspServers" given as paths
	InlineHooks, InlineMCP, InlineLSP bool     // ... or given inline, as an object

	doc *config.Document
}

// Author is plugin.json's author: an object {name, email, url}, or a string
// (npm's "Name <email> (url)" form, kept whole as Name).
type Author struct{ Name, Email, URL string }

// readManifest finds and reads root's manifest: nil and no error when there
// is none (it is optional). realRoot bounds its links.
func readManifest(root, realRoot string) (*Manifest, []error) {
	var found []string
	for _, rel := range ManifestPaths {
		if ok, err := regularInside(filepath.Join(root, rel), realRoot); err != nil {
			return nil, []error{&config.FileError{Path: filepath.Join(root, rel), Err: err}}
		} else if ok {
			found = append(found, filepath.Join(root, rel))
		}
	}
	switch len(found) {
	case 0:
		return nil, nil
	case 2:
		return nil, []error{fmt.Errorf("%s: two plugin manifests (%s): keep one", root, strings.Join(ManifestPaths, " and "))}
	}
	d := config.ReadFile(found[0], "plugin.json", config.JSON, realRoot)
	if d.Err != nil {
		return nil, []error{d.Err}
	}
	return parseManifest(d)
}

// parseManifest reads the manifest's fields from its decoded tree. Every
// problem is a *config.FileError at the key's line.
func parseManifest(d *config.Document) (*Manifest, []error) {
	m := &Manifest{Path: d.Path, doc: d}
	var errs []error
	str := func(key string) string {
		v, ok := d.Tree[key]
		if !ok || v == nil {
			return ""
		}
		s, ok := v.(string)
		if !ok {
			errs = append(errs, d.ErrorAt(key, "%s must be a string", key))
		}
		return s
	}
	m.Name = str("name")
	m.Version, m.Description = str("version"), str("description")
	m.Homepage, m.Repository, m.License = str("homepage"), str("repository"), str("license")
	switch {
	case d.Tree["name"] == nil:
		errs = append(errs, &config.FileError{Path: d.Path, Line: 1, Err: fmt.Errorf("the manifest has no \"name\"")})
	case m.Name != "":
		if err := ValidName(m.Name); err != nil {
			errs = append(errs, d.ErrorAt("name", "%v", err))
		}
	}
	switch a := d.Tree["author"].(type) {
	case nil:
	case string:
		m.Author.Name = a
	case map[string]any:
		for k, dst := range map[string]*string{"name": &m.Author.Name, "email": &m.Author.Email, "url": &m.Author.URL} {
			if s, ok := a[k].(string); ok {
				*dst = s
			} else if a[k] != nil {
				errs = append(errs, d.ErrorAt("author."+k, "author.%s must be a string", k))
			}
		}
	default:
		errs = append(errs, d.ErrorAt("author", "author must be an object {name, email, url} or a string"))
	}
	m.Keywords = pathList(d, "keywords", &errs)
	m.Commands = pathList(d, "commands", &errs)
	m.Agents = pathList(d, "agents", &errs)
	m.Skills = pathList(d, "skills", &errs)
	for key, dst := range map[string]*struct {
		paths  *[]string
		inline *bool
	}{
		"hooks":      {&m.Hooks, &m.InlineHooks},
		"mcpServers": {&m.MCPServers, &m.InlineMCP},
		"lspServers": {&m.LSPServers, &m.InlineLSP},
	} {
		if _, ok := d.Tree[key].(map[string]any); ok {
			*dst.inline = true
			continue
		}
		*dst.paths = pathList(d, key, &errs)
	}
	return m, errs
}

// pathList reads key as a string or a list of strings (nil when absent).
func pathList(d *config.Document, key string, errs *[]error) []string {
	switch v := d.Tree[key].(type) {
	case nil:
		return nil
	case string:
		return []string{v}
	case []any:
		out := make([]string, 0, len(v))
		for i, el := range v {
			s, ok := el.(string)
			if !ok {
				*errs = append(*errs, d.ErrorAt(fmt.Sprintf("%s[%d]", key, i), "%s[%d] must be a string", key, i))
				continue
			}
			out = append(out, s)
		}
		return out
	}
	*errs = append(*errs, d.ErrorAt(key, "%s must be a path or a list of paths", key))
	return nil
}
