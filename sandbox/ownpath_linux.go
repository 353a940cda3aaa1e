package sandbox

import (
	"os"
	"path/filepath"
)

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
// returns the entries left out. The caches are found (`go env`)
// with the PATH already trimmed of everything else.
func TrustOwnPATH(e *Executor) (dropped []string) {
	if !personPATHSet {
		return nil
	}
	ownPATH.Lock()
	defer ownPATH.Unlock()
	// First without running anything: the caches as the environment and
	// the defaults name them (finding the real ones runs `go env`, which
	// must come from the trimmed PATH); then with the caches go reports.
	pre := *e
	pre.Policy.NoCacheRoots = true
	cands := cacheCandidates() // in both passes: what go reports adds to them
	for _, ex := range []*Executor{&pre, e} {
		trees, guard, _, err := ex.trees()
		if err != nil {
			// A workspace root with a link in its way: nothing of the
			// person's PATH is trusted but what lies outside every root.
			guard = newPathGuard(nil)
		}
		trees = append(trees, cands...)
		guard = newPathGuard(append(guard.writable, treePaths(cands)...))
		_, out := ownPATHEntries(personPATH, trees, guard)
		for _, d := range out {
			ownPATHDropped[d] = true
		}
		dropped = setOwnPATH() // before the next pass's `go env`
	}
	return dropped
}

// setOwnPATH sets this process's PATH to the person's without every entry a
// TrustOwnPATH call left out (cumulative: a later call, Prepare's under the
// run's own workspace, leaves out more, never puts back what an earlier one
// left out) and returns those entries.
func setOwnPATH() (dropped []string) {
	var keep []string
	for _, d := range filepath.SplitList(personPATH) {
		if ownPATHDropped[d] {
			dropped = append(dropped, d)
		} else {
			keep = append(keep, d)
		}
	}
	_ = os.Setenv("PATH", joinPATH(keep))
	ownPATHApplied.Store(true)
	return dropped
}
