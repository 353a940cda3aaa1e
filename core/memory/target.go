package memory

import (
	"errors"
	"fmt"
	"path/filepath"
)

// placeOf is where a candidate of kind, scope and name is written for
// paths — the one derivation of a target, from facts checked by CheckName
// and CheckSkillName (never a path anyone gave): a memory file
// <dir>/<stem>.md, a skill <skills>/<name>/SKILL.md.
func placeOf(paths Paths, kind, scope, name string) (place, error) {
	switch kind {
	case KindMemory:
		if err := CheckName(name); err != nil {
			return place{}, err
		}
		dir := paths.ProjectDir
		if scope == ScopeUser {
			dir = paths.UserDir
		}
		if dir == "" {
			return place{}, fmt.Errorf("no %s memory dir (set PINCER_HOME or HOME)", scope)
		}
		return place{anchor: filepath.Dir(dir), rel: []string{filepath.Base(dir), FileStem(name) + ".md"}}, nil
	case KindSkill:
		if err := CheckSkillName(name); err != nil {
			return place{}, err
		}
		switch {
		case scope == ScopeUser && paths.UserSkills != "":
			return place{anchor: filepath.Dir(paths.UserSkills), rel: []string{"skills", name, "SKILL.md"}}, nil
		case scope == ScopeProject && paths.Project != "":
			return place{anchor: paths.Project, rel: []string{".pincer", "skills", name, "SKILL.md"}}, nil
		}
		return place{}, fmt.Errorf("no %s skills dir", scope)
	}
	return place{}, fmt.Errorf("candidate kind %q (memory or skill)", kind)
}

// indexPlace is the index a memory file of scope is listed in (USER.md in
// the config dir, MEMORY.md in the project's memory dir) and the link its
// line gives the file (relative to the index).
func indexPlace(paths Paths, scope, stem string) (place, string, error) {
	if scope == ScopeUser {
		if paths.UserIndex == "" {
			return place{}, "", errors.New("no config dir for USER.md")
		}
		return place{anchor: filepath.Dir(paths.UserIndex), rel: []string{UserIndexName}}, "memory/" + stem + ".md", nil
	}
	if paths.ProjectDir == "" {
		return place{}, "", errors.New("no project memory dir")
	}
	return place{anchor: filepath.Dir(paths.ProjectDir), rel: []string{filepath.Base(paths.ProjectDir), ProjectIndexName}},
		stem + ".md", nil
}
