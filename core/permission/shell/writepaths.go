package shell

import "path/filepath"

// WritePaths returns the literal targets of the write redirects of every
// command in a (nested ones included), in order and without duplicates,
// for the caller to check as file writes. Targets for which
// HarmlessTarget holds (/dev/null, /dev/stdout, /dev/stderr) are left out. Non-literal targets are not
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

// HarmlessTarget reports whether a write redirect to p (a literal target,
// as in Redirect.Target) writes no file: p is absolute and, after
// filepath.Clean, exactly /dev/null, /dev/stdout or /dev/stderr. Nothing
// else is exempt: not /dev/fd/N (`> /dev/fd/3` opens whatever fd 3 is, and
// `/dev/fd/../../../x` is any path), not /dev/tty, not a relative path
// that happens to reach /dev. Cleaning is lexical, as the kernel resolves
// ".." after each component: `/dev/./null` is /dev/null, `/dev//null/..`
// is /dev. A duplication such as `>&2` or `2>&1` is not a write at all
// (Redirect.Write is false). ReadOnly, WritePaths and the permission
// engine's redirect checks use this one function.
func HarmlessTarget(p string) bool {
	if !filepath.IsAbs(p) {
		return false
	}
	switch filepath.Clean(p) {
	case "/dev/null", "/dev/stdout", "/dev/stderr":
		return true
	}
	return false
}

// harmlessTarget is HarmlessTarget (kept for the package's callers).
func harmlessTarget(p string) bool { return HarmlessTarget(p) }
