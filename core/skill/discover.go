package skill

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"pincer/core/permission"
	"pincer/core/smallfile"
)

// Plugin is one enabled plugin's contribution to discovery: its name (the
// namespace: its skills and commands are /NAME:x) and the directories it
// declares (Claude Code's skills/ and commands/ by default).
type Plugin struct {
	Name               string
	SkillDirs, CmdDirs []string
}

// Dirs are the places Discover reads, layer by layer, in precedence order.
// DirsFor fills them from Claude Code's and pincer's locations.
type Dirs struct {
	Builtin []Skill  // registered built-ins (Builtins())
	Plugins []Plugin // enabled plugins, in the order they are listed
	// UserSkills, UserCommands: ~/.claude/skills and pincer's config dir's
	// skills/ (commands likewise).
	UserSkills, UserCommands []string
	// ProjectSkills, ProjectCommands: the workspace's .claude/skills and
	// .pincer/skills (commands likewise).
	ProjectSkills, ProjectCommands []string
	// Project is where the project layer's files may lead (inside the
	// workspace, never a hidden location: permission.ProjectFiles); User is
	// the user's and the plugins' (anywhere but a hidden location or a kernel
	// file: permission.UserFiles). DirsFor fills both.
	Project, User smallfile.Place
}

// DirsFor is Dirs for a workspace root, a home directory and pincer's config
// directory (core/config Paths.Config); ""
// leaves a layer's directories out. Built-ins and plugins are the caller's to add.
func DirsFor(root, home, configDir string) Dirs {
	d := Dirs{User: permission.UserFiles(home), Project: permission.ProjectFiles(root, home)}
	if root == "" {
		d.Project = d.User
	}
	if home != "" {
		d.UserSkills = append(d.UserSkills, filepath.Join(home, ".claude", "skills"))
		d.UserCommands = append(d.UserCommands, filepath.Join(home, ".claude", "commands"))
	}
	if configDir != "" {
		d.UserSkills = append(d.UserSkills, filepath.Join(configDir, "skills"))
		d.UserCommands = append(d.UserCommands, filepath.Join(configDir, "commands"))
	}
	if root != "" {
		d.ProjectSkills = []string{filepath.Join(root, ".claude", "skills"), filepath.Join(root, ".pincer", "skills")}
		d.ProjectCommands = []string{filepath.Join(root, ".claude", "commands"), filepath.Join(root, ".pincer", "commands")}
	}
	return d
}

// Problem is a file that contributes nothing, or an invocable passed over for
// another of its name, with why.
type Problem struct {
	File string
	Err  error
	// Shadowed is true when the file parsed but a layer before it has the
	// name (a project skill named as a built-in or a user one).
	Shadowed bool
}

func (p Problem) Error() string { return p.Err.Error() }

// maxDepth bounds the walk of a commands/ directory (Claude Code's namespaces
// are a directory or two deep).
const maxDepth = 4

// Discover reads every layer of d into a Catalog. A missing directory is no
// problem; an unreadable or unparsable file is one (Catalog.Problems) and
// contributes nothing. Symbolic links to directories are not followed; a
// SKILL.md or command file may itself be a link, read only where its layer's
// Place lets it lead (a project's: inside the workspace, never ~/.ssh or
// /proc/self/environ) and only if it is a plain regular file.
func Discover(d Dirs) *Catalog {
	c := &Catalog{byName: map[string]int{}, dirs: &d}
	for _, s := range d.Builtin {
		c.add(s)
	}
	for _, p := range d.Plugins {
		origin, prefix := PluginOrigin(p.Name), p.Name+":"
		c.layer(p.SkillDirs, p.CmdDirs, origin, prefix, d.User)
	}
	c.layer(d.UserSkills, d.UserCommands, OriginUser, "", d.User)
	c.layer(d.ProjectSkills, d.ProjectCommands, OriginProject, "", d.Project)
	c.addShortNames()
	return c
}

// layer adds one layer: its skills first (a skill beats a command of its name).
// Every file is read through place (core/smallfile): a refused one is a
// Problem naming it.
func (c *Catalog) layer(skillDirs, cmdDirs []string, origin Origin, prefix string, place smallfile.Place) {
	for _, dir := range skillDirs {
		for _, sd := range subdirs(dir, c) {
			s, err := LoadSkill(place, sd, origin, prefix)
			if err != nil {
				c.Problems = append(c.Problems, Problem{File: filepath.Join(sd, "SKILL.md"), Err: err})
				continue
			}
			c.add(s)
		}
	}
	for _, dir := range cmdDirs {
		for _, f := range commandFiles(dir, c) {
			rel, _ := filepath.Rel(dir, f)
			if rel == "." { // dir is one command file (a plugin's "commands": ["./x.md"])
				rel = filepath.Base(f)
			}
			name := prefix + strings.ReplaceAll(strings.TrimSuffix(filepath.ToSlash(rel), ".md"), "/", ":")
			s, err := LoadCommand(place, f, name, origin)
			if err != nil {
				c.Problems = append(c.Problems, Problem{File: f, Err: err})
				continue
			}
			c.add(s)
		}
	}
}

// add keeps s unless its name is taken; a passed-over one is a Problem. A
// user or project invocable passed over for another layer's (a project's
// .claude/commands/review.md under the built-in /review) is kept under its
// qualified name, /project:review or /user:review (Claude Code's older
// names for them), unless that is taken too: the name the person types
// still runs the first, and the other stays reachable. The Problem says so.
func (c *Catalog) add(s Skill) {
	if i, ok := c.byName[s.Name]; ok {
		first := c.skills[i]
		err := fmt.Errorf("%s %s /%s (%s) is not used: the %s %s of that name comes first",
			s.Origin, s.Kind, s.Name, fileOr(s), first.Origin, first.Kind)
		if q, ok := c.qualifiedName(s, first); ok {
			err = fmt.Errorf("%s %s /%s (%s) is /%s: the %s %s of that name comes first",
				s.Origin, s.Kind, s.Name, fileOr(s), q, first.Origin, first.Kind)
			s.Name = q
			c.byName[q] = len(c.skills)
			c.skills = append(c.skills, s)
		}
		c.Problems = append(c.Problems, Problem{File: s.File, Shadowed: true, Err: err})
		return
	}
	c.byName[s.Name] = len(c.skills)
	c.skills = append(c.skills, s)
}

// qualifiedName is the name a passed-over s keeps (add): ORIGIN:NAME for a
// user or project one passed over for another layer's, when that name is
// free; false otherwise (within a layer, a skill simply beats a command).
func (c *Catalog) qualifiedName(s, first Skill) (string, bool) {
	if (s.Origin != OriginUser && s.Origin != OriginProject) || first.Origin == s.Origin {
		return "", false
	}
	q := string(s.Origin) + ":" + s.Name
	_, taken := c.byName[q]
	return q, !taken
}

func fileOr(s Skill) string {
	if s.File != "" {
		return s.File
	}
	return "built in"
}

// subdirs lists dir's subdirectories holding a SKILL.md, sorted; links to
// directories are skipped. A dir holding a SKILL.md itself is that one skill
// (a plugin's "skills": "./my-skill").
func subdirs(dir string, c *Catalog) []string {
	if st, err := os.Lstat(filepath.Join(dir, "SKILL.md")); err == nil && st.Mode().IsRegular() {
		return []string{dir}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			c.Problems = append(c.Problems, Problem{File: dir, Err: err})
		}
		return nil
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() { // a symlink's type is not a directory: not followed
			continue
		}
		sd := filepath.Join(dir, e.Name())
		if _, err := os.Lstat(filepath.Join(sd, "SKILL.md")); err == nil {
			out = append(out, sd)
		}
	}
	sort.Strings(out)
	return out
}

// commandFiles lists the .md files under dir (at most maxDepth deep), sorted;
// links to directories are not followed.
func commandFiles(dir string, c *Catalog) []string {
	var out []string
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if p == dir && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			c.Problems = append(c.Problems, Problem{File: p, Err: err})
			return nil
		}
		if e.IsDir() {
			if rel, _ := filepath.Rel(dir, p); rel != "." && strings.Count(rel, string(filepath.Separator)) >= maxDepth-1 {
				return fs.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(e.Name(), ".md") {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		c.Problems = append(c.Problems, Problem{File: dir, Err: err})
	}
	sort.Strings(out)
	return out
}
