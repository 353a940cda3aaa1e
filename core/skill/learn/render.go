package learn

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Scope is where an accepted skill is written: the project's skills or the
// person's own.
type Scope string

// Scopes of a learned skill.
const (
	ScopeProject Scope = "project" // ROOT/.claude/skills/NAME/SKILL.md
	ScopeUser    Scope = "user"    // HOME/.claude/skills/NAME/SKILL.md
)

// Target is the SKILL.md an accepted skill of name is written to: under the
// workspace root's .claude/skills for ScopeProject, the home directory's
// .claude/skills for ScopeUser — the first skill directory of each layer
// skill.DirsFor reads, so the next session's discovery finds it. Errors: a
// name that is not ValidName, an unknown scope, an empty root or home.
func Target(scope Scope, root, home, name string) (string, error) {
	if err := ValidName(name); err != nil {
		return "", err
	}
	var base string
	switch scope {
	case ScopeProject:
		base = root
	case ScopeUser:
		base = home
	default:
		return "", fmt.Errorf("unknown skill scope %q (project or user)", scope)
	}
	if base == "" || !filepath.IsAbs(base) {
		return "", fmt.Errorf("no %s directory for a %s skill", map[Scope]string{ScopeProject: "workspace", ScopeUser: "home"}[scope], scope)
	}
	return filepath.Join(base, ".claude", "skills", name, "SKILL.md"), nil
}

// Render is the SKILL.md text of a draft learned from src: a frontmatter
// pincer writes itself — name (ValidName, checked again), description (one
// line, single-quoted YAML), source (session, turn) — then the body. Errors:
// an invalid name, a description that is empty after cleaning, a body over
// MaxBody.
func Render(d Draft, src Source) (string, error) {
	if err := ValidName(d.Name); err != nil {
		return "", err
	}
	desc := cleanLine(d.Description, MaxDescription)
	if desc == "" {
		return "", fmt.Errorf("skill %s: no description", d.Name)
	}
	body := strings.TrimSpace(cleanText(d.Body))
	if len(body) > MaxBody {
		return "", fmt.Errorf("skill %s: the body is %d bytes, more than %d", d.Name, len(body), MaxBody)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "---\nname: %s\ndescription: %s\nsource:\n  session: %s\n  turn: %d\n---\n%s\n",
		d.Name, yamlQuote(desc), yamlQuote(cleanLine(src.Session, 200)), max(src.Turn, 0), body)
	return b.String(), nil
}

// yamlQuote is a one-line string as a single-quoted YAML scalar.
func yamlQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
