package app

import (
	"path/filepath"
	"strings"

	"pincer/sandbox"
)

// trustOwnPATH trims this process's PATH for the programs pincer runs itself
// (sandbox.TrustOwnPATH: nothing from a directory sandboxed commands can
// write) under the workspace and pol (nil: the default policy, before the
// configuration is read or with the sandbox off) and returns a warning naming
// the absolute entries left out ("" when none: relative ones go silently, as
// commands never get them).
func (s *Setup) trustOwnPATH(pol *sandbox.Policy) string {
	p := sandbox.DefaultPolicy()
	if pol != nil {
		p = *pol
	}
	var abs []string
	for _, d := range sandbox.TrustOwnPATH(&sandbox.Executor{Policy: p, Workspace: s.Workspace}) {
		if filepath.IsAbs(d) {
			abs = append(abs, d)
		}
	}
	if len(abs) == 0 {
		return ""
	}
	return "PATH: pincer runs none of its own programs (git, rg, go, bash, hooks, language and MCP servers) from " +
		strings.Join(abs, ", ") + ": sandboxed commands can write there; commands still get the whole PATH"
}
