package config

import (
	"errors"
	"fmt"
	"strings"
)

// MaxExpandedBytes is the most bytes ${VAR} expansion may produce across the
// entries of one MCP configuration file. A file of a million "${BIG}" must not
// turn a 4 MiB read into gigabytes of arguments.
const MaxExpandedBytes = 1 << 20

// expander expands ${VAR} and ${VAR:-default} references in the strings of one
// file, as Claude Code does in .mcp.json: VAR is a name of letters, digits and
// '_' not starting with a digit; an unset VAR takes the default, and one with no
// default is an error; a VAR set to "" stays "" (the default is for an unset
// variable only, as Claude Code's `??`). Anything but a well-formed reference
// after "${" is an error (a nested `${A${B}}`, an unclosed `${A`, `${}`), never
// half expanded. A '$' not followed by '{' is itself. Expansion is one pass: a
// variable's value, or a default, holding "${X}" is kept literally.
type expander struct {
	lookup func(string) (string, bool)
	left   int // bytes the file may still produce
}

// newExpander expands with lookup (nil: no variable is set) under the
// MaxExpandedBytes budget.
func newExpander(lookup func(string) (string, bool)) *expander {
	if lookup == nil {
		lookup = func(string) (string, bool) { return "", false }
	}
	return &expander{lookup: lookup, left: MaxExpandedBytes}
}

// errExpansionBudget is the error of a file whose expansion passes MaxExpandedBytes.
var errExpansionBudget = fmt.Errorf("${VAR} expansion makes more than %d bytes in this file; pincer starts none of its servers", MaxExpandedBytes)

// expand returns s with its references expanded.
func (e *expander) expand(s string) (string, error) {
	if !strings.Contains(s, "${") {
		return e.spend(s)
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		ref := s[i+2:]
		end := strings.IndexByte(ref, '}')
		if end < 0 {
			return "", fmt.Errorf("%q: ${ is not closed by }", clip(s[i:]))
		}
		body := ref[:end]
		name, def, hasDef := strings.Cut(body, ":-")
		if !validVarName(name) {
			return "", fmt.Errorf("%q is not a variable reference (want ${NAME} or ${NAME:-default}, NAME of letters, digits and _)", clip(s[i:i+2+end+1]))
		}
		if hasDef && strings.Contains(def, "${") {
			return "", fmt.Errorf("%q: a default cannot hold another ${...}", clip(s[i:]))
		}
		if v, ok := e.lookup(name); ok {
			b.WriteString(v)
		} else if hasDef {
			b.WriteString(def)
		} else {
			return "", &UnsetVarError{Name: name}
		}
		if b.Len() > e.left {
			return "", errExpansionBudget
		}
		s = ref[end+1:]
	}
	return e.spend(b.String())
}

// spend takes out's length from the budget.
func (e *expander) spend(out string) (string, error) {
	if len(out) > e.left {
		return "", errExpansionBudget
	}
	e.left -= len(out)
	return out, nil
}

// UnsetVarError is a ${NAME} reference to a variable that is not set, without
// a default.
type UnsetVarError struct{ Name string }

func (e *UnsetVarError) Error() string {
	return fmt.Sprintf("${%s}: the environment variable %s is not set (set it, or give a default: ${%s:-value})", e.Name, e.Name, e.Name)
}

// IsUnsetVar reports whether err is an UnsetVarError.
func IsUnsetVar(err error) bool {
	var u *UnsetVarError
	return errors.As(err, &u)
}

// validVarName reports whether name is a variable name ${...} may hold.
func validVarName(name string) bool {
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for _, c := range name {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// clip shortens a quoted piece of a value for a message.
func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
