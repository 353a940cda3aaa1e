package learn

import (
	"fmt"
	"strings"
)

// Scope is where an accepted skill is written: the project's skills or the
// person's own (core/memory derives the directory of each).
type Scope string

// Scopes of a learned skill.
const (
	ScopeProject Scope = "project"
	ScopeUser    Scope = "user"
)

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
