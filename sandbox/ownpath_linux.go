package sandbox

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
// roots) and leaves out, each time, what any call so far left out; it
// returns the entries left out. It runs nothing: the caches are taken as the
// environment and the defaults name them (cacheCandidates), and those `go
// env` reports are left out too once found (noteCacheDirs, when the first
// command is planned) — finding them at start cost every subcommand a `go
// env` run (~6 ms of `pincer mcp list`'s 13).
func TrustOwnPATH(e *Executor) (dropped []string) {
	if !personPATHSet {
		return nil
	}
	ownPATH.Lock()
	defer ownPATH.Unlock()
	pre := *e
	pre.Policy.NoCacheRoots = true // cachePaths would run `go env`
	trees, guard, _, err := pre.trees()
	if err != nil {
		// A workspace root with a link in its way: nothing of the
		// person's PATH is trusted but what lies outside every root.
		guard = newPathGuard(nil)
	}
	cands := cacheCandidates()
	if known := knownCacheDirs.Load(); known != nil && !e.Policy.NoCacheRoots {
		cands = append(cands, cacheTrees(*known)...)
	}
	trees = append(trees, cands...)
	guard = newPathGuard(append(guard.writable, treePaths(cands)...))
	_, out := ownPATHEntries(personPATH, trees, guard)
	for _, d := range out {
		ownPATHDropped[d] = true
	}
	return setOwnPATH()
}
