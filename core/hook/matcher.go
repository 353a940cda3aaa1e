package hook

import (
	"fmt"
	"regexp"
	"strings"
)

// Matcher selects the hooks of an event by name: a tool name for PreToolUse and
// PostToolUse, the source for SessionStart, the trigger for PreCompact. The zero
// Matcher matches everything.
type Matcher struct {
	raw   string
	names []string       // a plain list: exact, case-sensitive names
	re    *regexp.Regexp // anchored; nil with names nil means "all"
}

// plainList is a matcher made only of names and "|" (spaces around "|" allowed).
var plainList = regexp.MustCompile(`^\s*\w+(\s*\|\s*\w+)*\s*$`)

// ParseMatcher parses a matcher the way Claude Code reads one ("Matcher patterns"
// in its hooks reference), with one refinement:
//
//   - "" or "*" matches every name;
//   - a plain list of names ("Write", "Edit|Write", "Edit | Write") matches those
//     names exactly and case-sensitively;
//   - anything else ("Notebook.*", "mcp__github__.*") is a Go regular expression
//     (RE2 syntax) that must match the whole name: it is anchored at both ends,
//     where Claude Code may match part of the name. Anchoring keeps "Edit.*"
//     from matching "MultiEdit" by surprise; write ".*Edit.*" for a substring.
//
// A pattern that does not compile is an error.
func ParseMatcher(s string) (Matcher, error) {
	t := strings.TrimSpace(s)
	switch {
	case t == "" || t == "*":
		return Matcher{raw: s}, nil
	case plainList.MatchString(t):
		parts := strings.Split(t, "|")
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		return Matcher{raw: s, names: parts}, nil
	}
	re, err := regexp.Compile(`^(?:` + t + `)$`)
	if err != nil {
		return Matcher{}, fmt.Errorf("matcher %q is not a valid regular expression: %w", s, err)
	}
	return Matcher{raw: s, re: re}, nil
}

// Match reports whether name is selected.
func (m Matcher) Match(name string) bool {
	switch {
	case m.names != nil:
		for _, n := range m.names {
			if n == name {
				return true
			}
		}
		return false
	case m.re != nil:
		return m.re.MatchString(name)
	}
	return true
}

// All reports whether the matcher selects every name.
func (m Matcher) All() bool { return m.names == nil && m.re == nil }

// String returns the matcher as written.
func (m Matcher) String() string { return m.raw }
