package web

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"sort"

	"pincer/core/app"
	"pincer/core/event"
	"pincer/core/permission"
)

// Requests of a session another process runs (a workbench's or `pincer
// run`'s turn). This server only watches such a session: its pending list is
// its log's (permission.requested that no permission.resolved closed), and a
// person's answer is recorded as a permission.answered event on that log —
// the store-answer path an attached workbench uses (app.Backend.AnswerRemote)
// — which the running process hands to its approval queue while the request
// still waits there (the first answer wins: one typed there, or this one).

// remotePending is the requests waiting in session as, when another live
// process holds it (nil otherwise), oldest first, labelled as the local ones.
func (s *Server) remotePending(ctx context.Context, as app.Session) []Approval {
	if as.Status != app.StatusRunning {
		return nil // held by nobody alive: the status reads the lease
	}
	holder, err := s.holderDescription(ctx, as.ID, as.Cwd)
	if err != nil || holder == "" {
		return nil
	}
	f, err := s.folds.of(ctx, as.ID)
	if err != nil || len(f.requests) == 0 {
		return nil
	}
	label := s.childLabel(ctx, as.ID)
	out := make([]Approval, 0, len(f.requests))
	for _, a := range f.requests {
		a.Label = label
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	return out
}

// allRemotePending is remotePending of every stored session.
func (s *Server) allRemotePending(ctx context.Context) ([]Approval, error) {
	list, err := s.store.Sessions(ctx, 0)
	if err != nil {
		return nil, err
	}
	var out []Approval
	for _, as := range list {
		out = append(out, s.remotePending(ctx, as)...)
	}
	return out, nil
}

// answeredBy is the By of this server's permission.answered: the process, for
// the running one's permission.resolved ("user (attached: pid 42 (pincer
// serve))").
func answeredBy() string { return fmt.Sprintf("pid %d (pincer serve)", os.Getpid()) }

// answerRemote records ans for requestID when it is pending in a session
// another process runs; false when no such session asks it.
func (s *Server) answerRemote(ctx context.Context, requestID string, behavior permission.Behavior, scope permission.Scope, reason string) (bool, error) {
	pending, err := s.allRemotePending(ctx)
	if err != nil {
		return false, err
	}
	for _, a := range pending {
		if a.RequestID != requestID {
			continue
		}
		_, err := s.store.Log().Emit(ctx, event.PermissionAnswered, a.SessionID, "", event.PermissionAnsweredData{
			RequestID: requestID, Behavior: string(behavior), Scope: string(scope), Reason: reason, By: answeredBy()})
		if err != nil {
			return false, errorf(http.StatusInternalServerError, CodeInternal, "recording the answer: %v", err)
		}
		return true, nil
	}
	return false, nil
}
