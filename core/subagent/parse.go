package subagent

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"pincer/core/config"
	"pincer/core/frontmatter"
	"pincer/core/permission"
	"pincer/core/smallfile"
)

// MaxFileBytes caps an agent file; a larger one is a Problem and not loaded.
const MaxFileBytes = 1 << 20

// MaxNameLen caps a name (a plugin's namespace apart).
const MaxNameLen = 64

// MaxTurnsLimit is the largest maxTurns a file may ask for.
const MaxTurnsLimit = 1000

// front is an agent file's frontmatter: Claude Code's subagent fields. Other
// keys (color, hooks, skills, ...) are ignored, as Claude Code ignores what it
// does not know.
type front struct {
	Name            string           `yaml:"name"`
	Description     string           `yaml:"description"`
	Tools           frontmatter.List `yaml:"tools"`
	DisallowedTools frontmatter.List `yaml:"disallowedTools"`
	Model           string           `yaml:"model"`
	PermissionMode  string           `yaml:"permissionMode"`
	MaxTurns        int              `yaml:"maxTurns"`
	Isolation       string           `yaml:"isolation"`
}

// nameSegment is one part of a name: a letter first, then letters, digits,
// '-' and '_' (Claude Code's agent names are lowercase and hyphens; pincer
// also takes the built-ins' capitals and '_').
var nameSegment = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)

// toolName is a tool name a definition may list: a plain name ("Bash",
// "mcp__server__tool", "mcp__server", "mcp__server__*"). A permission rule
// ("Bash(git:*)") is not a tool name: such a file is refused rather than read
// as granting the whole tool.
var toolName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.-]*(__\*)?$`)

// checkName reports whether name is valid: one segment, or "PLUGIN:name".
func checkName(name string) error {
	if name == "" {
		return errors.New("empty name")
	}
	for _, s := range strings.Split(name, ":") {
		if !nameSegment.MatchString(s) || len(s) > MaxNameLen {
			return fmt.Errorf("name %q: must start with a letter and hold only letters, digits, '-' and '_' (at most %d)", name, MaxNameLen)
		}
	}
	return nil
}

// Load reads one agent file through place (where it may lead: inside the
// workspace for a project's; plain regular, size-capped, never blocking) as a
// definition of origin; prefix ("PLUGIN:") is put before its name. Errors
// name the file (FILE:LINE for what does not parse: *config.FileError).
func Load(place smallfile.Place, file string, origin Origin, prefix string) (Definition, error) {
	data, err := place.Read(file, MaxFileBytes)
	if err != nil {
		return Definition{}, err // smallfile's errors name the file
	}
	d, err := Parse(file, data, origin)
	if err != nil {
		return Definition{}, err
	}
	d.Name = prefix + d.Name
	if err := checkName(d.Name); err != nil {
		return Definition{}, fmt.Errorf("%s: %w", file, err)
	}
	return d, nil
}

// Parse reads an agent file's bytes: frontmatter (name, description, tools,
// disallowedTools, model, permissionMode, maxTurns, isolation) and the body,
// the system prompt. The name defaults to the file's base name; a description
// and a body are required (the model chooses by the one, the subagent works
// by the other). Every error is *config.FileError at the key's line.
func Parse(file string, data []byte, origin Origin) (Definition, error) {
	doc, err := frontmatter.ParseWith(file, data, frontmatter.Options{TextKeys: []string{"description"}})
	if err != nil {
		return Definition{}, err
	}
	var f front
	if err := doc.Decode(&f); err != nil {
		return Definition{}, err
	}
	d := Definition{
		Name: strings.TrimSpace(f.Name), Description: oneLine(f.Description),
		Tools: f.Tools, DisallowedTools: f.DisallowedTools, MaxTurns: f.MaxTurns,
		Isolation: strings.TrimSpace(f.Isolation), Prompt: strings.TrimSpace(doc.Body),
		Origin: origin, Path: file,
	}
	if d.Name == "" {
		d.Name = strings.TrimSuffix(filepath.Base(file), ".md")
	}
	if strings.Contains(d.Name, ":") {
		return Definition{}, doc.Errorf("name", "agent name %q: ':' is the plugins' namespace, not part of a name", d.Name)
	}
	if err := checkName(d.Name); err != nil {
		return Definition{}, doc.Errorf("name", "agent %v", err)
	}
	if d.Description == "" {
		return Definition{}, lineError(doc, 1, "agent %s: a description is required (the model chooses an agent by it)", d.Name)
	}
	if d.Prompt == "" {
		return Definition{}, lineError(doc, doc.BodyLine, "agent %s: the file has no body (the subagent's system prompt)", d.Name)
	}
	for key, list := range map[string][]string{"tools": d.Tools, "disallowedTools": d.DisallowedTools} {
		for _, t := range list {
			if !toolName.MatchString(t) {
				return Definition{}, doc.Errorf(key, "%q is not a tool name (a permission rule belongs in the settings' permissions)", t)
			}
		}
	}
	if f.Tools != nil && len(f.Tools) == 0 {
		d.Tools = []string{} // "tools: []": no tools at all, not all of them
	}
	if m := strings.TrimSpace(f.Model); m != "" && m != "inherit" {
		if !toolName.MatchString(strings.ReplaceAll(m, "/", ".")) {
			return Definition{}, doc.Errorf("model", "model %q: want inherit, sonnet, opus, haiku or a model ID", m)
		}
		d.Model = m
	}
	if pm := strings.TrimSpace(f.PermissionMode); pm != "" {
		mode, err := permission.ParseMode(pm)
		if err != nil {
			return Definition{}, doc.Errorf("permissionMode", "%v", err)
		}
		d.PermissionMode = mode
	}
	if d.MaxTurns < 0 || d.MaxTurns > MaxTurnsLimit {
		return Definition{}, doc.Errorf("maxTurns", "maxTurns %d: want 1 to %d (0 or none: the default)", d.MaxTurns, MaxTurnsLimit)
	}
	if d.Isolation != "" && d.Isolation != IsolationWorktree {
		return Definition{}, doc.Errorf("isolation", "isolation %q: the one isolation is %q", d.Isolation, IsolationWorktree)
	}
	return d, nil
}

// lineError is a *config.FileError at line of doc's file.
func lineError(doc frontmatter.Doc, line int, format string, a ...any) error {
	return &config.FileError{Path: doc.File, Line: line, Err: fmt.Errorf(format, a...)}
}

// oneLine folds white space runs (a folded YAML description) to one space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
