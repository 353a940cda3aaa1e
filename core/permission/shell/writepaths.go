package shell

import (
	"path"
	"strings"
)

// WritePaths returns the literal targets of the write redirects of every
// command in a (nested ones included), in order and without duplicates,
// for the caller to check as file writes. /dev/null, /dev/stdout,
// /dev/stderr and /dev/fd/* are left out. Non-literal targets are not
// returned; Analyze reports them as the risk "write redirect to a
// non-literal path".
func WritePaths(a Analysis) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range a.Commands {
		for _, r := range c.Redirects {
			if !r.Write || !r.Literal || harmlessTarget(r.Target) || seen[r.Target] {
				continue
			}
			seen[r.Target] = true
			out = append(out, r.Target)
		}
	}
	return out
}

// harmlessTarget reports whether writing to p writes no file.
func harmlessTarget(p string) bool {
	if !strings.HasPrefix(p, "/") {
		return false
	}
	p = path.Clean(p)
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr":
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/")
}
