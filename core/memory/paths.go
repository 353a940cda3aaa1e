package memory

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
)

// Index file names.
const (
	// UserIndexName is the person's file in pincer's config dir.
	UserIndexName = "USER.md"
	// ProjectIndexName is a project's index in its memory dir.
	ProjectIndexName = "MEMORY.md"
)

// Paths are where the memory and skill files of one workspace live; every
// path is absolute (PathsFor), "" where a location is unknown (no config or
// data dir: candidates of that scope are refused).
type Paths struct {
	// UserIndex is USER.md in pincer's config dir; UserDir (the config dir's
	// memory/) holds the user-scope memory files it indexes.
	UserIndex, UserDir string
	// ProjectDir is the project's memory dir under the data dir
	// (ProjectDir): MEMORY.md and the project's memory files.
	ProjectDir string
	// Project is the workspace root.
	Project string
	// UserSkills (the config dir's skills/) and ProjectSkills (the
	// workspace's .pincer/skills) are where accepted skill candidates go.
	UserSkills, ProjectSkills string
}

// PathsFor is Paths for pincer's config dir (core/config Paths.Config), its
// data dir (Paths.Data) and a workspace root; "" leaves its locations out.
func PathsFor(configDir, dataDir, root string) Paths {
	var p Paths
	if configDir != "" {
		p.UserIndex = filepath.Join(configDir, UserIndexName)
		p.UserDir = filepath.Join(configDir, "memory")
		p.UserSkills = filepath.Join(configDir, "skills")
	}
	if root != "" {
		p.Project = filepath.Clean(root)
		p.ProjectSkills = filepath.Join(p.Project, ".pincer", "skills")
		if dataDir != "" {
			p.ProjectDir = ProjectDir(dataDir, p.Project)
		}
	}
	return p
}

// ProjectIndex is the project's MEMORY.md ("" when ProjectDir is unknown).
func (p Paths) ProjectIndex() string {
	if p.ProjectDir == "" {
		return ""
	}
	return filepath.Join(p.ProjectDir, ProjectIndexName)
}

// ProjectDir is a workspace root's memory dir: DATA/memory/projects/KEY,
// KEY the root's base name (letters, digits, '-', '_', '.'; others '_') and
// the first 12 hex digits of the SHA-256 of the cleaned root, so two
// projects of one name never share memory.
func ProjectDir(dataDir, root string) string {
	root = filepath.Clean(root)
	sum := sha256.Sum256([]byte(root))
	base := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, filepath.Base(root))
	if base == "" || strings.Trim(base, ".") == "" {
		base = "root"
	}
	return filepath.Join(dataDir, "memory", "projects", base+"-"+hex.EncodeToString(sum[:6]))
}
