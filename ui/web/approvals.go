package web

import (
	"context"
	"net/http"

	"pincer/core/agent"
	"pincer/core/permission"
)

// listApprovals is GET /api/approvals: the requests pending in every session
// this server runs, then those of sessions other processes run (their logs').
func (s *Server) listApprovals(w http.ResponseWriter, r *http.Request) {
	remote, err := s.allRemotePending(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"approvals": append(s.pending.list(""), remote...)})
}

// resolveApproval is POST /api/approvals/{requestId}
// {"decision":"allow|deny","scope":"once|session|always","reason":""}: the
// person's answer, given to the request's approval queue as a keypress in
// the workbench's approvals pane would be (By "user"); scope defaults to
// once and a denial is once. A request of a session another process runs
// is answered through the store (remote.go): {"resolved":true}
// (and "remote":true) says it was recorded for that process, which acts on it if the request still
// waits there. A request pending nowhere (unknown, already answered) is
// not_found.
func (s *Server) resolveApproval(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Decision string `json:"decision"`
		Scope    string `json:"scope"`
		Reason   string `json:"reason"`
	}
	if err := decodeBody(w, r, &body); err != nil {
		writeError(w, err)
		return
	}
	behavior := permission.Behavior(body.Decision)
	if behavior != permission.Allow && behavior != permission.Deny {
		writeError(w, errorf(http.StatusBadRequest, CodeBadRequest, "field decision: want allow or deny, not %q", body.Decision))
		return
	}
	scope := permission.Scope(body.Scope)
	switch scope {
	case "":
		scope = permission.ScopeOnce
	case permission.ScopeOnce, permission.ScopeSession, permission.ScopeAlways:
	default:
		writeError(w, errorf(http.StatusBadRequest, CodeBadRequest, "field scope: want once, session or always, not %q", body.Scope))
		return
	}
	if behavior == permission.Deny {
		scope = permission.ScopeOnce
	}
	id := r.PathValue("requestId")
	a, ok := s.pending.take(id) // one answer per request: a second one finds it gone
	if !ok {
		remote, err := s.answerRemote(r.Context(), id, behavior, scope, body.Reason)
		if err != nil {
			writeError(w, err)
			return
		}
		if remote {
			writeJSON(w, http.StatusOK, map[string]any{"resolved": true, "remote": true})
			return
		}
		a, ok = s.pending.takeSoon(r.Context(), id)
	}
	if !ok {
		writeError(w, errorf(http.StatusNotFound, CodeNotFound, "no pending request %s", id))
		return
	}
	// Listed means its Approve has not returned: the queue delivers the answer
	// now, or keeps it for the Approve call about to wait.
	a.queue(id, agent.Approval{Scope: scope, Decision: permission.Decision{Behavior: behavior, Reason: body.Reason, By: "user"}})
	writeJSON(w, http.StatusOK, map[string]any{"resolved": true})
}

// childLabel is a pending request's Label: "[TYPE]" for a subagent's child
// session (its agent type, else "subagent"), "" for a top-level one.
func (s *Server) childLabel(ctx context.Context, sessionID string) string {
	as, err := s.store.Session(ctx, sessionID)
	if err != nil || as.ParentID == "" {
		return ""
	}
	if as.AgentType == "" {
		return "[subagent]"
	}
	return "[" + as.AgentType + "]"
}
