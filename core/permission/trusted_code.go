package permission

import "path/filepath"

// TrustedCode is a path in the workspace that code pincer trusts runs outside
// the sandbox, found when the session starts (core/app/trusted_code.go): the
// directory core.hooksPath names (git runs its hooks on the person's next
// commit), a git configuration file git includes, the scripts the person's
// hooks and approved MCP servers name. A write to it asks in every mode, as a
// write to a protected path (dontAsk and headless runs deny it); the sandbox
// mounts the same paths read-only (sandbox.Policy.TrustedCode).
type TrustedCode struct {
	// Path is absolute and clean; a directory protects everything below it.
	Path string
	// Why says what runs it, for the reason line ("core.hooksPath names it:
	// git runs its hooks outside the sandbox").
	Why string
}

// trustedCodeIn returns the first of paths that is, or lies below, one of
// in.TrustedCode, compared cleaned and with symlinks resolved on both sides,
// and why that path is protected.
func trustedCodeIn(paths []string, in Input) (path, why string, ok bool) {
	for _, p := range paths {
		cp, rp := filepath.Clean(p), in.resolvePath(p)
		for _, tc := range in.TrustedCode {
			tp := filepath.Clean(tc.Path)
			if inside(cp, tp) || inside(rp, tp) || inside(rp, in.resolvePath(tp)) {
				if rp != cp {
					return p + " (" + rp + ")", tc.Why, true
				}
				return p, tc.Why, true
			}
		}
	}
	return "", "", false
}
