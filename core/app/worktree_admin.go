package app

import (
	"context"
	"fmt"
	"time"

	"pincer/core/worktree"
	"pincer/persist"
)

// worktreeAdminTimeout bounds one listing, merge or removal.
const worktreeAdminTimeout = 2 * time.Minute

// WorktreeInfo is one worktree as `pincer worktrees` and the workbench's
// /worktrees list it.
type WorktreeInfo struct {
	worktree.Worktree
	// Stat is what it changed against its base (worktree.DiffStat); StatErr
	// says why it could not be measured ("" when it was).
	Stat    worktree.Stat `json:"stat"`
	StatErr string        `json:"statError,omitempty"`
	// Merged: everything it holds is in the main checkout's HEAD
	// (worktree.Merged): Stat is what was merged, not what is pending.
	Merged bool `json:"merged,omitempty"`
	// MergeProtected are the protected paths merging its branch would change
	// in the main checkout, read from git's trees (worktree.MergeProtected;
	// Stat.ProtectedFiles marks those of its files).
	MergeProtected []string `json:"mergeProtected,omitempty"`
	// Session is the session that made it: the oldest whose record names its
	// checkout (persist.Session.Worktree); "" when none does (made by hand,
	// or its session deleted). Sessions counts every session that worked there.
	Session  string `json:"session,omitempty"`
	Sessions int    `json:"sessions"`
	// Title is Session's title.
	Title string `json:"title,omitempty"`
}

// Protected are the protected paths a merge of it would bring into the main
// checkout: its changed files' (Stat.ProtectedFiles) and its branch's
// (MergeProtected), each once, in order.
func (w WorktreeInfo) Protected() []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range append(w.Stat.ProtectedFiles(), w.MergeProtected...) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// Changes is the one-line summary `pincer worktrees` and /worktrees show:
// the diff stat, "merged: STAT" once merged, "empty (nothing changed)"
// for a worktree nothing was done in.
func (w WorktreeInfo) Changes() string {
	switch {
	case w.Missing:
		return "checkout gone"
	case w.StatErr != "":
		return "? (" + w.StatErr + ")"
	case w.Merged:
		return "merged: " + w.Stat.String()
	case w.Stat.Empty() && len(w.MergeProtected) == 0:
		return "empty (nothing changed)"
	}
	return w.Stat.String()
}

// ListWorktrees lists the worktrees of the repository around dir (by name)
// with their diff stats, whether they are merged, the protected paths a
// merge would bring and, when store is not nil, the sessions that worked in
// them.
func ListWorktrees(ctx context.Context, store persist.Store, dir string) ([]WorktreeInfo, error) {
	m, err := Worktrees()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, worktreeAdminTimeout)
	defer cancel()
	list, err := m.List(ctx, dir)
	if err != nil {
		return nil, err
	}
	var sessions []persist.Session
	if store != nil && len(list) > 0 {
		if sessions, err = store.ListSessions(ctx, 0); err != nil {
			return nil, err
		}
	}
	out := make([]WorktreeInfo, 0, len(list))
	for _, wt := range list {
		info := WorktreeInfo{Worktree: wt}
		if wt.Missing {
			info.StatErr = "its checkout is gone"
		} else if info.Stat, err = worktree.DiffStat(ctx, wt); err != nil {
			info.StatErr = err.Error()
		} else {
			if info.Merged, err = worktree.Merged(ctx, wt); err != nil {
				info.StatErr = err.Error()
			}
			if info.MergeProtected, err = worktree.MergeProtected(ctx, wt); err != nil {
				info.StatErr = err.Error()
			}
		}
		// ListSessions is newest first: the last match is the oldest.
		for _, s := range sessions {
			if s.Worktree == wt.Path {
				info.Sessions++
				info.Session, info.Title = s.ID, s.Title
			}
		}
		out = append(out, info)
	}
	return out, nil
}

// MergeWorktree merges worktree name of the repository around dir into the
// main checkout's current branch (worktree.Merge: its pending work committed
// first; a dirty main checkout refused, a conflict aborted; a change to a
// protected path refused unless allowProtected). The worktree
// stays: RemoveWorktree it after.
func MergeWorktree(ctx context.Context, dir, name string, allowProtected bool) (worktree.MergeResult, error) {
	wt, err := findWorktree(ctx, dir, name)
	if err != nil {
		return worktree.MergeResult{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, worktreeAdminTimeout)
	defer cancel()
	return worktree.Merge(ctx, wt, allowProtected)
}

// RemoveWorktree discards worktree name of the repository around dir: its
// checkout, branch and record (worktree.Remove; without force it refuses
// uncommitted work and commits the main checkout lacks).
func RemoveWorktree(ctx context.Context, dir, name string, force bool) error {
	wt, err := findWorktree(ctx, dir, name)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, worktreeAdminTimeout)
	defer cancel()
	return worktree.Remove(ctx, wt, force)
}

// findWorktree is the record of worktree name (also one whose checkout is
// gone, so that it can be removed).
func findWorktree(ctx context.Context, dir, name string) (worktree.Worktree, error) {
	if err := worktree.ValidName(name); err != nil {
		return worktree.Worktree{}, usagef("%v", err)
	}
	m, err := Worktrees()
	if err != nil {
		return worktree.Worktree{}, err
	}
	list, err := m.List(ctx, dir)
	if err != nil {
		return worktree.Worktree{}, err
	}
	for _, wt := range list {
		if wt.Name == name {
			return wt, nil
		}
	}
	return worktree.Worktree{}, fmt.Errorf("%w: %s (see pincer worktrees)", worktree.ErrNotFound, name)
}
