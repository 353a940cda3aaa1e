package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"pincer/core/message"
)

// ChildInfo describes a subagent run of this process: its child session, the
// parent session and Agent tool call that started it, how it was started.
type ChildInfo struct {
	SessionID       string
	ParentSessionID string
	ToolCallID      string
	AgentType       string
	Description     string
	Background      bool
	Worktree        string
	Branch          string
	Team, Member    string
	StartedAt       time.Time
	// Running is false once the run ended (its ChildResult is then known).
	Running bool
}

// ChildResult is how a subagent run ended: Outcome and Err as the child's
// turn ended, Text its final text, ModelCalls and Usage summed over its model
// calls, DiffStat a worktree run's `git diff --stat` ("" otherwise).
type ChildResult struct {
	ChildInfo
	Outcome    Outcome
	Err        error
	Text       string
	ModelCalls int
	Usage      message.Usage
	Duration   time.Duration
	DiffStat   string
}

// ErrNoSuchChild is returned for a child session this process does not run.
var ErrNoSuchChild = errors.New("no subagent of this process has that session")

// Subagents is the registry of the subagent runs of a process — foreground
// and background, the children of every session its agents run. The
// workbench follows a child through its session's log (the ID is in the
// parent's subagent.started), lists a session's running children, cancels
// one, and waits for them (`pincer run` waits before its last model call).
// One registry is shared by the agents of a composition (core/app passes it
// to every agent it derives); its methods are safe for concurrent use.
type Subagents struct {
	mu     sync.Mutex
	runs   map[string]*childRun // by child session ID
	closed bool                 // EndAll ran: no run starts again
}

// NewSubagents returns an empty registry.
func NewSubagents() *Subagents { return &Subagents{runs: map[string]*childRun{}} }

// childRun is one child session's run (a team member's may run several
// turns, one after another).
type childRun struct {
	info     ChildInfo
	agent    *Agent          // the child's agent
	parent   *Agent          // the agent of the parent session, which receives the result
	ctx      context.Context // the run's: cancelled by cancel
	cancel   context.CancelCauseFunc
	finishFn func(context.Context) (string, error) // Spawned.Finish
	model    string                                // the model ID the child's calls send
	// again, when set (a team member's run), is asked as a run ends, under
	// the registry's lock: true re-arms the run at once for another turn
	// (rearmLocked), so it never shows as not running in between.
	again func() bool
	// mayStart, when set (a team member's), is asked under the registry's
	// lock as a message finds the run idle: false leaves it idle; true
	// counts the turn, and Deliver re-arms the run and signals wake, on
	// which the member's loop (memberLoop) waits.
	mayStart func() bool
	wake     chan struct{} // capacity 1: one pending start is enough
	done     chan struct{} // closed when the current run ended
	res      ChildResult
	// collected is set when WaitAll returned res (a new run clears it).
	collected bool
}

// add registers a starting run.
func (s *Subagents) add(r *childRun) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runs[r.info.SessionID] = r
}

// finish records the run's result and wakes its waiters.
func (s *Subagents) finish(r *childRun, res ChildResult) {
	s.mu.Lock()
	r.res = res
	r.info.Running = false
	r.res.ChildInfo = r.info
	r.collected = false
	done := r.done
	if !s.closed && r.again != nil && r.again() {
		rearmLocked(r)
	}
	s.mu.Unlock()
	close(done)
}

// get returns the run of child session id.
func (s *Subagents) get(id string) (*childRun, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.runs[id]
	return r, ok
}

// Children lists the subagent runs of parentSessionID this process started,
// running or ended, oldest first.
func (s *Subagents) Children(parentSessionID string) []ChildInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []ChildInfo
	for _, r := range s.runs {
		if r.info.ParentSessionID == parentSessionID {
			out = append(out, r.info)
		}
	}
	slices.SortFunc(out, func(a, b ChildInfo) int { return a.StartedAt.Compare(b.StartedAt) })
	return out
}

// Running lists the running children of parentSessionID, oldest first.
func (s *Subagents) Running(parentSessionID string) []ChildInfo {
	return slices.DeleteFunc(s.Children(parentSessionID), func(c ChildInfo) bool { return !c.Running })
}

// Cancel cancels the run of child session id (its turn ends cancelled, its
// result says so); false when no run of that session is going on.
func (s *Subagents) Cancel(id string) bool {
	s.mu.Lock()
	r, ok := s.runs[id]
	running := ok && r.info.Running
	var cancel context.CancelCauseFunc
	if running {
		cancel = r.cancel // read under the lock: a team member's run is re-armed with a new one
	}
	s.mu.Unlock()
	if running {
		cancel(errors.New("subagent cancelled"))
	}
	return running
}

// cancelChildren cancels every running child of parentSessionID (the
// parent's turn was cancelled: its children end with it).
func (s *Subagents) cancelChildren(parentSessionID string) {
	for _, c := range s.Running(parentSessionID) {
		s.Cancel(c.SessionID)
	}
}

// CancelAll cancels every running child (the process is ending).
func (s *Subagents) CancelAll() {
	s.mu.Lock()
	var ids []string
	for id, r := range s.runs {
		if r.info.Running {
			ids = append(ids, id)
		}
	}
	s.mu.Unlock()
	for _, id := range ids {
		s.Cancel(id)
	}
}

// EndAll ends every run as the process ends: it cancels the running ones,
// lets none start again (a team member's next turn, a delivered message),
// and waits until each has recorded its end — subagent.completed in its
// parent's log, its session no longer running — or ctx ends. A child
// cancelled before its turn started ends cancelled too.
func (s *Subagents) EndAll(ctx context.Context) {
	s.mu.Lock()
	s.closed = true
	var runs []*childRun
	for _, r := range s.runs {
		if r.info.Running {
			runs = append(runs, r)
		}
	}
	s.mu.Unlock()
	s.CancelAll()
	for _, r := range runs {
		s.mu.Lock()
		done, running := r.done, r.info.Running
		s.mu.Unlock()
		if !running {
			continue
		}
		select {
		case <-done:
		case <-ctx.Done():
			return
		}
	}
}

// Wait blocks until the current run of child session id ends, and returns its
// result; ErrNoSuchChild when this process has no such run, ctx's error when
// ctx ends first.
func (s *Subagents) Wait(ctx context.Context, id string) (ChildResult, error) {
	s.mu.Lock()
	r, ok := s.runs[id]
	var done chan struct{}
	if ok {
		done = r.done
	}
	s.mu.Unlock()
	if !ok {
		return ChildResult{}, fmt.Errorf("%w: %s", ErrNoSuchChild, id)
	}
	select {
	case <-done:
	case <-ctx.Done():
		return ChildResult{}, ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return r.res, nil
}

// WaitAll waits until parentSessionID has no running child (one that starts
// meanwhile is waited for too) and returns the results of its runs that
// ended since the last WaitAll of that parent took them — those that ended
// before WaitAll was called too — in the order they were started.
func (s *Subagents) WaitAll(ctx context.Context, parentSessionID string) ([]ChildResult, error) {
	for {
		running := s.Running(parentSessionID)
		if len(running) == 0 {
			break
		}
		for _, c := range running {
			if _, err := s.Wait(ctx, c.SessionID); err != nil {
				return nil, err
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []ChildResult
	for _, r := range s.runs {
		if r.info.ParentSessionID == parentSessionID && !r.info.Running && !r.collected {
			r.collected = true
			out = append(out, r.res)
		}
	}
	slices.SortFunc(out, func(a, b ChildResult) int { return a.StartedAt.Compare(b.StartedAt) })
	return out, nil
}
