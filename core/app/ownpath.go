package app

import (
	"os"
	"path/filepath"
	"strings"

	"pincer/core/config"
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

// TrustOwnPATHAtStart trims this process's PATH for pincer's own programs
// (sandbox.TrustOwnPATH) before any subcommand runs one — `pincer worktrees`
// and `pincer doctor` ran git from the person's whole PATH (red team r24b
// F1) — under the current directory as the workspace and the sandbox policy
// its configuration files give (their writable_roots: F4), read without
// running anything. Prepare trims again under the run's own workspace and
// policy. It returns the warning trustOwnPATH would ("" when nothing absolute
// was left out).
func TrustOwnPATHAtStart() string {
	cwd, err := os.Getwd()
	if err != nil {
		return ""
	}
	s := &Setup{}
	if s.Workspace, err = sandbox.NewWorkspace(cwd); err != nil {
		return ""
	}
	src := config.Read(config.PathsFrom(os.Getenv), s.Workspace.Root())
	var report configReport
	pol := sandboxPolicy(src, sandboxFlags{}, &report)
	return s.trustOwnPATH(pol)
}
