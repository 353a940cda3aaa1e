package frontmatter

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// List is a frontmatter list in any of Claude Code's forms: a YAML list of
// strings (`[Read, Grep]`, or one item a line), or one string whose items are
// separated by commas and/or white space ("Read, Grep", "Read Grep"); white
// space inside parentheses belongs to its item ("Bash(git add:*), Read" is two
// items). Empty items are dropped. A mapping, or a list item that is not a
// single value, is an error.
type List []string

// UnmarshalYAML decodes either form.
func (l *List) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			*l = nil
			return nil
		}
		*l = SplitList(n.Value)
		return nil
	case yaml.SequenceNode:
		out := List{}
		for _, c := range n.Content {
			if c.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: a list item must be a single value", c.Line)
			}
			if v := strings.TrimSpace(c.Value); v != "" {
				out = append(out, v)
			}
		}
		*l = out
		return nil
	}
	return fmt.Errorf("line %d: want a list or a comma-separated string", n.Line)
}

// SplitList splits s at commas and white space outside parentheses.
func SplitList(s string) List {
	out := List{}
	var cur strings.Builder
	depth := 0
	flush := func() {
		if v := strings.TrimSpace(cur.String()); v != "" {
			out = append(out, v)
		}
		cur.Reset()
	}
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0 && (r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r'):
			flush()
			continue
		}
		cur.WriteRune(r)
	}
	flush()
	return out
}
