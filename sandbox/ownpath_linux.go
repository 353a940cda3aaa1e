package sandbox

import "os"

// TrustOwnPATH sets this process's PATH — what exec.LookPath and
// exec.Command search when pincer runs a program of its own outside the
// sandbox: git (the prompt, checkpoints, worktrees), rg (Grep), go (`go env`
// for the caches), bash (the Bash tool, hooks), a language server, an MCP
// server's command, and what hooks run — to the person's PATH without what a
// sandboxed command could plant a program in: relative entries, entries in a
// writable tree of e (workspace roots, temp dirs, toolchain caches, writable
// roots, every workspace of the process; a read-only path of a tree such as
// CARGO_HOME/bin stays) and entries reached through a link in one. An
// activated .venv/bin in the workspace, or a PATH entry under /tmp, would
// otherwise let a repository-allowed command replace the `git` pincer runs on
// its next model call (red team r24 F1). Commands keep the person's PATH
// (CommandEnvAllow). It may be called again (the configuration adds writable
// roots); it returns the entries left out. The caches are found (`go env`)
// with the PATH already trimmed of everything else.
func TrustOwnPATH(e *Executor) (dropped []string) {
	if !personPATHSet {
		return nil
	}
	ownPATH.Lock()
	defer ownPATH.Unlock()
	pre := *e
	pre.Policy.NoCacheRoots = true
	for _, ex := range []*Executor{&pre, e} {
		trees, guard, _, err := ex.trees()
		if err != nil {
			// A workspace root with a link in its way: nothing of the
			// person's PATH is trusted but what lies outside every root.
			guard = newPathGuard(nil)
		}
		var keep []string
		keep, dropped = ownPATHEntries(personPATH, trees, guard)
		_ = os.Setenv("PATH", joinPATH(keep))
		ownPATHApplied.Store(true)
	}
	return dropped
}
