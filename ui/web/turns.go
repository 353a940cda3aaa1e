package web

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"pincer/core/agent"
)

// turnRun is a turn this server runs: cancel ends it; cancelled is set (under
// Server.mu) by the first cancel, so a second one while it ends is no_turn.
type turnRun struct {
	cancel    context.CancelCauseFunc
	cancelled bool
}

// turnRunning reports whether this server runs a turn of sessionID.
func (s *Server) turnRunning(sessionID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.turns[sessionID] != nil
}

// sessionWorkspace is the workspace of a stored session, its Run made on
// first use (resuming the session), the session's SessionStart hooks run
// ("resume") the first time this server touches it.
func (s *Server) sessionWorkspace(ctx context.Context, id, cwd string) (*workspace, error) {
	if err := checkDir(cwd); err != nil {
		return nil, errorf(http.StatusBadRequest, CodeBadRequest, "session %s: its directory cannot be used: %s", id, strings.TrimPrefix(err.Error(), "bad_request: field cwd: "))
	}
	ws, created, err := s.workspaceFor(ctx, cwd, id)
	if err != nil {
		return nil, err
	}
	if !created {
		ws.start(ctx, id, "resume")
	}
	return ws, nil
}

// submitTurn is POST /api/sessions/{id}/turns {"input":"text"}: 202 with the
// sequence the turn's events follow; the turn runs in this process. A
// "/name args" input goes through the invocation path of `pincer run`
// (skills and custom commands expand; slash.go). Refused: unknown_command,
// not_available (a workbench-only /name), lease_held (another process
// writes the session), turn_running.
func (s *Server) submitTurn(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Input string `json:"input"`
	}
	if err := decodeBody(w, r, &body); err != nil {
		writeError(w, err)
		return
	}
	if strings.TrimSpace(body.Input) == "" {
		writeError(w, errorf(http.StatusBadRequest, CodeBadRequest, "field input: empty"))
		return
	}
	as, err := s.session(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if holder, err := s.holderDescription(r.Context(), as.ID, as.Cwd); err != nil {
		writeError(w, err)
		return
	} else if holder != "" {
		writeError(w, fmtHolder(as.ID, holder))
		return
	}
	ws, err := s.sessionWorkspace(r.Context(), as.ID, as.Cwd)
	if err != nil {
		writeError(w, err)
		return
	}
	if err := refuseSlash(body.Input, ws.slash); err != nil { // a /name typo costs no model call
		writeError(w, err)
		return
	}
	if holder, err := ws.be.Runner(r.Context(), as.ID); err != nil { // the workspace's own view of the lease
		writeError(w, err)
		return
	} else if holder != "" {
		writeError(w, fmtHolder(as.ID, holder))
		return
	}
	after, err := ws.be.LastSequence(r.Context(), as.ID)
	if err != nil {
		writeError(w, err)
		return
	}
	ctx, cancel := context.WithCancelCause(s.ctx)
	s.mu.Lock()
	switch {
	case s.closed:
		s.mu.Unlock()
		cancel(nil)
		writeError(w, errClosed)
		return
	case s.turns[as.ID] != nil:
		s.mu.Unlock()
		cancel(nil)
		writeError(w, errorf(http.StatusConflict, CodeTurnRunning, "session %s runs a turn: cancel it or wait for its end", as.ID))
		return
	}
	s.turns[as.ID] = &turnRun{cancel: cancel}
	s.turnsWG.Add(1)
	s.mu.Unlock()
	go s.runTurn(ctx, cancel, ws, as.ID, body.Input)
	writeJSON(w, http.StatusAccepted, map[string]any{"sessionId": as.ID, "turnStartedAfter": after})
}

// runTurn runs one turn to its end and unlists it.
func (s *Server) runTurn(ctx context.Context, cancel context.CancelCauseFunc, ws *workspace, id, input string) {
	defer s.turnsWG.Done()
	defer func() {
		cancel(nil)
		s.mu.Lock()
		delete(s.turns, id)
		s.mu.Unlock()
	}()
	res, err := ws.be.Submit(ctx, id, input)
	switch {
	case errors.Is(err, agent.ErrLeaseHeld):
		s.logf("session %s: turn not run: %v", id, err)
	case err != nil:
		s.logf("session %s: turn: %v", id, err)
	case res.Err != nil:
		s.logf("session %s: turn ended: %v", id, res.Err)
	}
}

// cancelTurn is POST /api/sessions/{id}/cancel {}: the running turn is
// cancelled (recorded as the workbench's Esc: "cancelled by user"); no_turn
// when none runs here, or its turn was cancelled already (a second cancel).
func (s *Server) cancelTurn(w http.ResponseWriter, r *http.Request) {
	var body struct{}
	if err := decodeBody(w, r, &body); err != nil {
		writeError(w, err)
		return
	}
	id := r.PathValue("id")
	s.mu.Lock()
	t := s.turns[id]
	first := t != nil && !t.cancelled
	if first {
		t.cancelled = true
	}
	s.mu.Unlock()
	if t != nil && !first {
		writeError(w, errorf(http.StatusConflict, CodeNoTurn, "session %s: its turn is cancelled already (ending)", id))
		return
	}
	if t == nil {
		if _, err := s.session(r); err != nil {
			writeError(w, err)
			return
		}
		writeError(w, errorf(http.StatusConflict, CodeNoTurn, "session %s runs no turn in this server", id))
		return
	}
	t.cancel(nil)
	writeJSON(w, http.StatusOK, map[string]any{"cancelled": true})
}
