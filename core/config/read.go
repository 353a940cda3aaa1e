package config

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
)

// Sources are every configuration file of one workspace, each read and decoded
// once (Read); the behaviour packages get their typed tables from here
// (Permissions, Hooks, Sandbox, Keys, and Load's provider layers) and read no
// files themselves.
type Sources struct {
	Paths     Paths
	Workspace string
	Docs      []*Document // SourcesFor's order; absent files included (Exists false)
}

// Read reads the sources of workspace ("": only the user's) under paths. It never
// fails: a file's problem is its Document's Err, which Errors reports.
func Read(paths Paths, workspace string) *Sources {
	s := ReadSources(SourcesFor(paths, workspace), workspace)
	s.Paths = paths
	return s
}

// ReadSources is Read of an explicit source list (tests, a subagent's own
// files). A file listed twice, or two sources that are one file, is read as the
// first (the later Document has Same set).
func ReadSources(srcs []Source, workspace string) *Sources {
	s := &Sources{Workspace: workspace}
	var seen []os.FileInfo
	for _, src := range srcs {
		d := readDocument(src, workspace)
		if (d.Kind == ProjectMCP || d.Kind == ClaudeState) && d.Err != nil {
			d.Err.Warning = true // none of its servers start; no rule, hook or sandbox setting is lost
		}
		if d.Exists {
			if fi, err := os.Stat(src.Path); err == nil {
				for _, s := range seen {
					d.Same = d.Same || os.SameFile(s, fi)
				}
				seen = append(seen, fi)
			}
		}
		s.Docs = append(s.Docs, d)
	}
	return s
}

// Doc returns the document of kind k, nil when it is not among the sources (no
// workspace, no home).
func (s *Sources) Doc(k Kind) *Document {
	for _, d := range s.Docs {
		if d.Kind == k {
			return d
		}
	}
	return nil
}

// docs returns the documents of kinds that exist, parsed, and are not an earlier
// source's file, in source order.
func (s *Sources) docs(kinds ...Kind) []*Document {
	var out []*Document
	for _, d := range s.Docs {
		if !d.Exists || d.Err != nil || d.Same {
			continue
		}
		for _, k := range kinds {
			if d.Kind == k {
				out = append(out, d)
			}
		}
	}
	return out
}

// Errors returns the problem of each file that could not be read or decoded,
// in source order: all fatal (a file that does not parse contributes none of
// its deny rules, hooks or sandbox settings).
func (s *Sources) Errors() []error {
	var out []error
	for _, d := range s.Docs {
		if d.Err != nil && !d.Same {
			out = append(out, d.Err)
		}
	}
	return out
}

// ProjectHookDigest is the hex SHA-256 of the project files hooks are read
// from (.pincer/config.toml, .claude/settings.json, .claude/settings.local.json,
// in that order; an absent file counts as absent, so creating one changes the
// digest), over the bytes Read decoded: what was loaded is what is hashed. The
// value a project-hook trust record holds; the same digest as before Sources
// (path, NUL, length, NUL, bytes per file).
func (s *Sources) ProjectHookDigest() string {
	h := sha256.New()
	for _, d := range s.Docs {
		if !d.Project || d.Kind == LocalSettings || d.Kind == ProjectMCP {
			continue
		}
		if !d.Exists || d.Data == nil && d.Err != nil {
			fmt.Fprintf(h, "%s\x00absent\x00", d.Path)
			continue
		}
		fmt.Fprintf(h, "%s\x00%d\x00", d.Path, len(d.Data))
		h.Write(d.Data)
	}
	return hex.EncodeToString(h.Sum(nil))
}
