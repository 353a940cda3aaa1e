package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"pincer/core/config"
	"pincer/core/worktree"
	"pincer/persist"
	"pincer/sandbox"
)

// worktreeTimeout bounds making (or finding) a worktree at start.
const worktreeTimeout = 2 * time.Minute

// Worktrees returns the Manager of this machine's worktrees, in the data
// directory (DATA/worktrees: config.Paths.Data); it fails when there is no
// data directory.
func Worktrees() (*worktree.Manager, error) {
	p := config.PathsFrom(os.Getenv)
	if p.DataErr != nil {
		return nil, p.DataErr
	}
	return worktree.New(filepath.Join(p.Data, "worktrees")), nil
}

// WorktreeWorkspace returns the Workspace of a session that works in wt:
// rooted at its checkout, which is also given to AddDir (it lies in pincer's
// data directory, which the sandbox and the file tools hide: a directory
// added on purpose is the one way in, and only that worktree — never the
// other worktrees, never the rest of the data directory), with the main
// repository's git shared (sandbox.Workspace.ShareGit: the objects but
// objects/info, the worktree's git dir; no ref, so git add works under the
// sandbox and git commit stops at the branch's ref: pincer's own
// worktree.Commit records the work), and addDirs (--add-dir) added after. Then
// build the agent with Run.DeriveAgent (a subagent, a tab).
func WorktreeWorkspace(wt worktree.Worktree, addDirs ...string) (*sandbox.Workspace, error) {
	ws, err := sandbox.NewWorkspace(wt.Path)
	if err != nil {
		return nil, fmt.Errorf("worktree %s: %w", wt.Name, err)
	}
	if err := ws.AddDir(wt.Path); err != nil {
		return nil, fmt.Errorf("worktree %s: %w", wt.Name, err)
	}
	if err := ws.ShareGit(sandbox.GitShare{CommonDir: wt.CommonDir, GitDir: wt.GitDir}); err != nil {
		return nil, fmt.Errorf("worktree %s: %w", wt.Name, err)
	}
	for _, d := range addDirs {
		if err := ws.AddDir(d); err != nil {
			return nil, err
		}
	}
	return ws, nil
}

// openWorktree finds worktree name of the repository around dir, or makes
// it (Options.Worktree: `pincer --worktree NAME` reuses the one of that name).
func openWorktree(dir, name string) (worktree.Worktree, error) {
	m, err := Worktrees()
	if err != nil {
		return worktree.Worktree{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), worktreeTimeout)
	defer cancel()
	wt, err := m.Open(ctx, dir, name)
	if errors.Is(err, worktree.ErrNotFound) {
		wt, err = m.Create(ctx, dir, name)
	}
	return wt, err
}

// NewWorktree makes a worktree for a session apart from this Run's (a
// subagent's isolation "worktree", a new tab): a free name from name
// (worktree.Manager.CreateFree) in the repository of the Run's workspace (the
// main checkout, also when the Run itself works in a worktree), and its
// Workspace (WorktreeWorkspace, with the Run's --add-dir directories).
func (r *Run) NewWorktree(ctx context.Context, name string) (worktree.Worktree, *sandbox.Workspace, error) {
	m, err := Worktrees()
	if err != nil {
		return worktree.Worktree{}, nil, err
	}
	wt, err := m.CreateFree(ctx, r.Workspace.Root(), name)
	if err != nil {
		return worktree.Worktree{}, nil, err
	}
	ws, err := WorktreeWorkspace(wt, r.Options.AddDirs...)
	if err != nil {
		return wt, nil, err
	}
	return wt, ws, nil
}

// CommitWorktree commits the work of the Run's worktree (Options.Worktree)
// on its branch as one commit (worktree.Commit), so that the branch has
// what the session changed: `pincer run --worktree NAME` does it when the
// run ends. It reports whether a commit was made; without a worktree it
// does nothing.
func (r *Run) CommitWorktree(ctx context.Context) (bool, error) {
	if r.Worktree == nil {
		return false, nil
	}
	_, committed, err := worktree.Commit(ctx, *r.Worktree, fmt.Sprintf("pincer: session %s", r.SessionID))
	return committed, err
}

// markWorktree records wt in the record of the new session id (its
// Worktree and Branch), so that the sessions browser and /worktrees can say
// which session made which worktree.
func markWorktree(ctx context.Context, store persist.Store, id string, wt worktree.Worktree) error {
	rec, err := store.GetSession(ctx, id)
	if err != nil {
		return err
	}
	rec.Worktree, rec.Branch = wt.Path, wt.Branch
	return store.PutSession(ctx, rec)
}
