package skill

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"pincer/core/frontmatter"
	"pincer/core/permission"
	"pincer/core/smallfile"
)

// MaxFileBytes caps a SKILL.md or command file; a larger one is a problem and
// contributes nothing.
const MaxFileBytes = 1 << 20

// MaxNameLen caps a name segment (Agent Skills: 64 characters).
const MaxNameLen = 64

// frontFields are the frontmatter keys pincer reads (Claude Code's); others
// (context, agent, hooks, ...) are ignored.
type frontFields struct {
	Name                   string           `yaml:"name"`
	Description            string           `yaml:"description"`
	ArgumentHint           string           `yaml:"argument-hint"`
	AllowedTools           frontmatter.List `yaml:"allowed-tools"`
	Model                  string           `yaml:"model"`
	DisableModelInvocation bool             `yaml:"disable-model-invocation"`
	UserInvocable          *bool            `yaml:"user-invocable"`
	Arguments              frontmatter.List `yaml:"arguments"`
	// Source is a learned skill's origin (session, turn); any other shape
	// of the key is no learned skill's and is ignored (learned.go).
	Source any `yaml:"source"`
}

// segment is one part of a name: a letter first (a slash command's name as
// the workbench reads it), then letters, digits, '-' and '_'.
var segment = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)

// argName is a named argument: $name must not collide with $ARGUMENTS or $1.
var argName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// checkName reports whether name is ":"-separated valid segments.
func checkName(name string) error {
	if name == "" {
		return errors.New("empty name")
	}
	for _, s := range strings.Split(name, ":") {
		if !segment.MatchString(s) || len(s) > MaxNameLen {
			return fmt.Errorf("name %q: each part must start with a letter and hold only letters, digits, '-' and '_' (at most %d)", name, MaxNameLen)
		}
	}
	return nil
}

// LoadSkill reads dir/SKILL.md (through place: where it may lead) as a skill of origin; prefix ("plugin:") is put
// before its name. The name is the frontmatter's `name`, else the directory's.
// Errors are *config.FileError (FILE:LINE) or a read error naming the file.
func LoadSkill(place smallfile.Place, dir string, origin Origin, prefix string) (Skill, error) {
	file := filepath.Join(dir, "SKILL.md")
	s, err := loadFile(place, file, origin, KindSkill)
	if err != nil {
		return Skill{}, err
	}
	if s.Name == "" {
		s.Name = filepath.Base(dir)
	}
	s.Name = prefix + s.Name
	if err := checkName(s.Name); err != nil {
		return Skill{}, fmt.Errorf("%s: %w", file, err)
	}
	s.Dir = dir
	return s, nil
}

// LoadCommand reads a command file; name is its /NAME without the slash
// (Discover derives it from the path: dir/sub/x.md is "sub:x").
func LoadCommand(place smallfile.Place, file, name string, origin Origin) (Skill, error) {
	s, err := loadFile(place, file, origin, KindCommand)
	if err != nil {
		return Skill{}, err
	}
	s.Name = name // a command's frontmatter has no name: its path is its name
	if err := checkName(s.Name); err != nil {
		return Skill{}, fmt.Errorf("%s: %w", file, err)
	}
	return s, nil
}

// loadFile reads and parses one file through place (where it may lead;
// plain regular, size-capped, never blocking: core/smallfile).
func loadFile(place smallfile.Place, file string, origin Origin, kind Kind) (Skill, error) {
	data, err := place.Read(file, MaxFileBytes)
	if err != nil {
		return Skill{}, err // smallfile's errors name the file
	}
	doc, err := frontmatter.ParseWith(file, data, frontmatter.Options{TextKeys: []string{"argument-hint", "description"}})
	if err != nil {
		return Skill{}, err
	}
	var f frontFields
	if err := doc.Decode(&f); err != nil {
		return Skill{}, err
	}
	for _, a := range f.Arguments {
		if !argName.MatchString(a) || a == "ARGUMENTS" {
			return Skill{}, doc.Errorf("arguments", "argument name %q: letters, digits and '_' only, not ARGUMENTS", a)
		}
	}
	for _, r := range f.AllowedTools {
		if err := checkRule(r); err != nil {
			return Skill{}, doc.Errorf("allowed-tools", "%v", err)
		}
	}
	s := Skill{
		Name: f.Name, Description: strings.TrimSpace(f.Description), ArgumentHint: strings.TrimSpace(f.ArgumentHint),
		AllowedTools: f.AllowedTools, Model: strings.TrimSpace(f.Model), DisableModelInvocation: f.DisableModelInvocation,
		UserInvocable: f.UserInvocable == nil || *f.UserInvocable, Arguments: f.Arguments,
		Body: doc.Body, File: file, Origin: origin, Kind: kind, Learned: learnedFrom(f.Source),
	}
	if s.Description == "" {
		s.Description = firstParagraph(doc.Body)
	}
	return s, nil
}

// firstParagraph is Claude Code's default description: the body's first
// paragraph (headings' marks dropped), on one line, cut at 200 characters.
func firstParagraph(body string) string {
	var words []string
	for _, line := range strings.Split(body, "\n") {
		t := strings.TrimSpace(line)
		if t == "" {
			if len(words) > 0 {
				break
			}
			continue
		}
		words = append(words, strings.TrimSpace(strings.TrimLeft(t, "#")))
	}
	d := strings.Join(words, " ")
	if r := []rune(d); len(r) > 200 {
		d = string(r[:199]) + "…"
	}
	return d
}

// checkRule reports whether r is a permission rule pincer reads.
func checkRule(r string) error {
	_, err := permission.ParseRule(r)
	return err
}

// CheckName reports whether name is a valid skill or command name (parts
// separated by ':', each a letter then letters, digits, '-' and '_', at most
// MaxNameLen): the rule LoadSkill applies, for those who name a skill before
// it is written (core/memory's skill candidates).
func CheckName(name string) error { return checkName(name) }
