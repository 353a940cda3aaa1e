package agent

import (
	"context"
	"fmt"
)

// StartBackground starts a background child of req.ParentSessionID with
// prompt, as an Agent call with run_in_background does (TeamCreate's
// members): it returns once the child session exists and subagent.started
// is in the parent's log; the result reaches the parent as a reminder and
// subagent.completed. req.ParentMode and ParentModel default to this agent's
// mode and model. The run outlives ctx (Subagents.Cancel ends it).
func (a *Agent) StartBackground(ctx context.Context, req SpawnRequest, prompt string) (ChildInfo, error) {
	req.Background = true
	if req.ParentMode == "" {
		req.ParentMode = a.Mode()
	}
	if req.ParentModel == "" {
		req.ParentModel = a.model()
	}
	r, err := a.startChild(ctx, req, turnOf(ctx))
	if err != nil {
		return ChildInfo{}, err
	}
	info := r.info // before the run can change it
	go a.runChild(r, prompt, "")
	return info, nil
}

// Deliver gives text to child session id — a lead's or a teammate's
// message; the one way a message reaches a child (SendMessage's too): a
// running child receives it before its next model call (Remind; a turn that
// ends with it unread runs once more for it). An idle team member receives it
// the same way and its loop is woken for a turn, unless its team ended or
// its budget is spent (childRun.mayStart: the message then stays in its log
// and starts nothing). Any other idle child runs another turn in the
// background with text as its prompt — its end is announced and reminded to
// the parent as the first run's. ErrNoSuchChild for a session this process
// does not run.
func (s *Subagents) Deliver(ctx context.Context, id, text string) error {
	s.mu.Lock()
	r, ok := s.runs[id]
	if !ok {
		s.mu.Unlock()
		return fmt.Errorf("%w: %s", ErrNoSuchChild, id)
	}
	if r.info.Running || r.wake != nil {
		r.agent.Remind(id, text)
	}
	if r.info.Running || s.closed || r.mayStart != nil && !r.mayStart() {
		s.mu.Unlock()
		return nil
	}
	rearmLocked(r)
	r.info.Background = true
	wake := r.wake
	s.mu.Unlock()
	if wake != nil {
		select {
		case wake <- struct{}{}:
		default: // a start is already pending
		}
		return nil
	}
	go r.parent.runChild(r, text, "")
	return nil
}
