package app

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"pincer/core/agent"
	"pincer/core/event"
	"pincer/persist"
)

// Tabs: a workbench holds several live sessions at once (ui/tui's tabs).
// A tab's session runs on the Backend's Agent, or — opened in a git worktree
// (OpenSession with a name) — on an agent of the same composition confined
// to that worktree (built by OpenWorktree, Run.DeriveAgent). The Backend
// keeps which agent runs which session (sessionAgents) and routes every
// per-session method to it: Submit, SetMode, EstimateContext, Runner,
// /model switch. Answers need no routing: derived agents ask through the
// same approval queue.

// TabWorktree is what OpenWorktree returns: the agent a session in the
// worktree runs on, and the worktree's path and branch (recorded on the
// session). Commit, when set, commits the worktree's work on its branch
// (worktree.Commit); Submit calls it after each turn of the session, as
// `pincer run --worktree` commits when its run ends, so the branch has what
// the turn changed.
type TabWorktree struct {
	Agent        *agent.Agent
	Path, Branch string
	Commit       func(ctx context.Context, message string) error
}

// ErrNoWorktrees is OpenSession's refusal of a worktree when the Backend
// was built without OpenWorktree (no repository, a front end without them).
var ErrNoWorktrees = errors.New("sessions in a git worktree are not available here")

// sessionAgents maps session IDs to the agent that runs them, for sessions
// not run by the Backend's own Agent. Safe for concurrent use.
type sessionAgents struct {
	mu      sync.Mutex
	by      map[string]*agent.Agent
	commits map[string]func(ctx context.Context, message string) error // a worktree session's TabWorktree.Commit
}

// agentFor is the agent that runs sessionID: the one it was opened on, else
// the Backend's.
func (b *Backend) agentFor(sessionID string) *agent.Agent {
	b.routes.mu.Lock()
	defer b.routes.mu.Unlock()
	if a := b.routes.by[sessionID]; a != nil {
		return a
	}
	return b.Agent
}

// route records that ag runs sessionID.
func (b *Backend) route(sessionID string, ag *agent.Agent) {
	if ag == b.Agent {
		return
	}
	b.routes.mu.Lock()
	defer b.routes.mu.Unlock()
	if b.routes.by == nil {
		b.routes.by = map[string]*agent.Agent{}
	}
	b.routes.by[sessionID] = ag
}

// allAgents is the Backend's agent and every tab's derived one.
func (b *Backend) allAgents() []*agent.Agent {
	out := []*agent.Agent{b.Agent}
	b.routes.mu.Lock()
	defer b.routes.mu.Unlock()
	seen := map[*agent.Agent]bool{b.Agent: true}
	for _, a := range b.routes.by {
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	return out
}

// ownedHere reports whether a lease owner is one of this Backend's agents
// (its own or a tab's derived one): a session it holds runs here.
func (b *Backend) ownedHere(owner string) bool {
	if owner == b.Agent.Owner() {
		return true
	}
	b.routes.mu.Lock()
	defer b.routes.mu.Unlock()
	for _, a := range b.routes.by {
		if a.Owner() == owner {
			return true
		}
	}
	return false
}

// OpenSession starts a session for a new tab and returns its ID: in the
// workspace when worktree is "", else in git worktree worktree (created on
// its own branch, or reused), on the agent OpenWorktree builds for it, with
// the worktree's path and branch on the session's record. The new session's
// SessionStart hooks run with source "startup", as a session pincer starts.
// A worktree without OpenWorktree is ErrNoWorktrees.
func (b *Backend) OpenSession(ctx context.Context, worktree string) (string, error) {
	ag, path, branch := b.Agent, "", ""
	var commit func(context.Context, string) error
	if worktree != "" {
		if b.OpenWorktree == nil {
			return "", ErrNoWorktrees
		}
		wt, err := b.OpenWorktree(ctx, worktree)
		if err != nil {
			return "", fmt.Errorf("worktree %s: %w", worktree, err)
		}
		ag, path, branch, commit = wt.Agent, wt.Path, wt.Branch, wt.Commit
	}
	s, err := ag.CreateSession(ctx)
	if err != nil {
		return "", err
	}
	if path != "" {
		s.Worktree, s.Branch = path, branch
		if err := b.Store.PutSession(ctx, s); err != nil {
			return "", fmt.Errorf("session %s: %w", s.ID, err)
		}
	}
	b.route(s.ID, ag)
	if commit != nil {
		b.routes.mu.Lock()
		if b.routes.commits == nil {
			b.routes.commits = map[string]func(context.Context, string) error{}
		}
		b.routes.commits[s.ID] = commit
		b.routes.mu.Unlock()
	}
	ag.StartSession(ctx, s.ID, "startup")
	return s.ID, nil
}

// inheritRoute gives the new session s what previous had of a worktree
// tab: its agent, its commit after each turn, and the worktree and branch on
// its record. A session of the Backend's own agent passes nothing.
func (b *Backend) inheritRoute(ctx context.Context, previous string, s persist.Session) error {
	b.routes.mu.Lock()
	ag, commit := b.routes.by[previous], b.routes.commits[previous]
	b.routes.mu.Unlock()
	if ag == nil {
		return nil
	}
	prev, err := b.Store.GetSession(ctx, previous)
	if err != nil {
		return err
	}
	if prev.Worktree != "" {
		s.Worktree, s.Branch = prev.Worktree, prev.Branch
		if err := b.Store.PutSession(ctx, s); err != nil {
			return err
		}
	}
	b.route(s.ID, ag)
	if commit != nil {
		b.routes.mu.Lock()
		b.routes.commits[s.ID] = commit
		b.routes.mu.Unlock()
	}
	return nil
}

// EndSession runs the SessionEnd hooks of sessionID with reason ("exit",
// "other": a workbench tab closed) on the agent that runs it.
func (b *Backend) EndSession(ctx context.Context, sessionID, reason string) {
	b.agentFor(sessionID).EndSession(ctx, sessionID, reason)
}

// commitTurn commits a worktree session's work after its turn (Submit),
// reporting a failure in the session's log (a warning notice): the turn's
// own result stands.
func (b *Backend) commitTurn(ctx context.Context, sessionID string) {
	b.routes.mu.Lock()
	commit := b.routes.commits[sessionID]
	b.routes.mu.Unlock()
	if commit == nil && b.agentFor(sessionID) == b.Agent {
		commit = b.CommitWorktree // a session of the Backend's own agent: --worktree's
	}
	if commit == nil {
		return
	}
	if err := commit(context.WithoutCancel(ctx), "pincer: session "+sessionID); err != nil {
		_, _ = b.Agent.Log().Emit(context.WithoutCancel(ctx), event.Notice, sessionID, "", event.NoticeData{Level: "warning", Source: "worktree",
			Message: "the turn's work is not committed on the worktree's branch: " + err.Error()})
	}
}
