package web

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"pincer/core/app"
)

// Session is a stored session as the API shows it (field names as the event
// JSON's). Status is `pincer sessions list`'s (core/app SessionStatus); Mode
// the permission mode its Run has in this server, else the last one its log
// recorded, else "default"; Running whether a turn of it runs now (here or in
// the process holding it); LastSequence its last event's sequence (where an
// event stream that starts now begins).
type Session struct {
	ID           string     `json:"id"`
	Title        string     `json:"title"`
	Cwd          string     `json:"cwd"`
	Model        string     `json:"model"`
	Mode         string     `json:"mode"`
	Status       string     `json:"status"`
	ParentID     string     `json:"parentId"`
	AgentType    string     `json:"agentType"`
	CreatedAt    time.Time  `json:"createdAt"`
	UpdatedAt    time.Time  `json:"updatedAt"`
	Usage        Usage      `json:"usage"`
	Running      bool       `json:"running"`
	LastSequence uint64     `json:"lastSequence"`
	Children     []*Session `json:"children,omitempty"`
}

// SessionDetail is GET /api/sessions/{id}: the session and the requests
// pending in this server of it and of its subagents' sessions (labelled), or,
// for a session another process runs, those its log holds open.
type SessionDetail struct {
	Session
	Pending []Approval `json:"pending"`
}

// sessionJSON is the API's Session of s.
func (s *Server) sessionJSON(ctx context.Context, as app.Session) (*Session, error) {
	f, err := s.folds.of(ctx, as.ID)
	if err != nil {
		return nil, err
	}
	out := &Session{ID: as.ID, Title: as.Title, Cwd: as.Cwd, Model: as.Model, Status: as.Status,
		ParentID: as.ParentID, AgentType: as.AgentType, CreatedAt: as.CreatedAt, UpdatedAt: as.UpdatedAt,
		Usage: f.Usage, LastSequence: f.LastSequence, Mode: f.Mode}
	if w := s.existingWorkspace(as.Cwd); w != nil {
		out.Mode = string(w.be.Mode())
	}
	if out.Mode == "" {
		out.Mode = "default"
	}
	out.Running = as.Status == app.StatusRunning || s.turnRunning(as.ID)
	return out, nil
}

// listSessions is GET /api/sessions: every stored session, newest first,
// children nested under their parent (app.SessionTree).
func (s *Server) listSessions(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.Sessions(r.Context(), 0)
	if err != nil {
		writeError(w, err)
		return
	}
	rows := app.SessionTree(len(list), func(i int) string { return list[i].ID },
		func(i int) string { return list[i].ParentID }, nil)
	top := []*Session{}
	var stack []*Session // stack[d]: the last session shown at depth d
	for _, row := range rows {
		js, err := s.sessionJSON(r.Context(), list[row.Index])
		if err != nil {
			writeError(w, err)
			return
		}
		stack = append(stack[:min(row.Depth, len(stack))], js)
		if row.Depth == 0 || len(stack) < 2 {
			top = append(top, js)
			continue
		}
		parent := stack[len(stack)-2]
		parent.Children = append(parent.Children, js)
	}
	writeJSON(w, http.StatusOK, map[string]any{"sessions": top})
}

// session is the stored session of the request's {id}; not_found when none.
func (s *Server) session(r *http.Request) (app.Session, error) {
	id := r.PathValue("id")
	as, err := s.store.Session(r.Context(), id)
	if errors.Is(err, app.ErrNoSession) {
		return as, errorf(http.StatusNotFound, CodeNotFound, "no session %s", id)
	}
	return as, err
}

// getSession is GET /api/sessions/{id}.
func (s *Server) getSession(w http.ResponseWriter, r *http.Request) {
	as, err := s.session(r)
	if err != nil {
		writeError(w, err)
		return
	}
	js, err := s.sessionJSON(r.Context(), as)
	if err != nil {
		writeError(w, err)
		return
	}
	pending := []Approval{}
	for _, a := range s.pending.list("") {
		if s.descends(r.Context(), a.SessionID, as.ID) {
			pending = append(pending, a)
		}
	}
	pending = append(pending, s.remotePending(r.Context(), as)...) // a session another process runs
	writeJSON(w, http.StatusOK, SessionDetail{Session: *js, Pending: pending})
}

// maxNesting bounds the walk up a child session's parents.
const maxNesting = 16

// descends reports whether session id is ancestor or one of its subagents'
// sessions (at any depth): the workbench's queue shows a subagent's requests
// with its parent's, labelled.
func (s *Server) descends(ctx context.Context, id, ancestor string) bool {
	for range maxNesting {
		if id == ancestor {
			return true
		}
		as, err := s.store.Session(ctx, id)
		if err != nil || as.ParentID == "" {
			return false
		}
		id = as.ParentID
	}
	return false
}

// writeSession answers status with the session id's JSON.
func (s *Server) writeSession(w http.ResponseWriter, r *http.Request, status int, id string) {
	as, err := s.store.Session(r.Context(), id)
	if err != nil {
		writeError(w, err)
		return
	}
	js, err := s.sessionJSON(r.Context(), as)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, status, js)
}

// createSession is POST /api/sessions {"cwd":"/abs/dir"}: a new session in
// that workspace (its Run prepared on first use, as `pincer` there).
func (s *Server) createSession(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Cwd string `json:"cwd"`
	}
	if err := decodeBody(w, r, &body); err != nil {
		writeError(w, err)
		return
	}
	if err := checkDir(body.Cwd); err != nil {
		writeError(w, err)
		return
	}
	ws, created, err := s.workspaceFor(r.Context(), body.Cwd, "")
	if err != nil {
		writeError(w, err)
		return
	}
	id := ws.run.SessionID // a new Run's own new session
	if !created {
		if id, err = ws.newSession(r.Context()); err != nil {
			writeError(w, err)
			return
		}
	}
	s.writeSession(w, r, http.StatusCreated, id)
}

// checkDir refuses a cwd that is not an existing absolute directory.
func checkDir(dir string) error {
	switch {
	case dir == "":
		return errorf(http.StatusBadRequest, CodeBadRequest, "field cwd: missing (an absolute directory)")
	case !filepath.IsAbs(dir):
		return errorf(http.StatusBadRequest, CodeBadRequest, "field cwd: %q is not an absolute path", dir)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return errorf(http.StatusBadRequest, CodeBadRequest, "field cwd: %v", err)
	}
	if !fi.IsDir() {
		return errorf(http.StatusBadRequest, CodeBadRequest, "field cwd: %s is not a directory", dir)
	}
	return nil
}

// serverInfo is GET /api/server: the directory pincer serve runs in (the
// panel's default workspace for a new session).
func (s *Server) serverInfo(w http.ResponseWriter, r *http.Request) {
	cwd, _ := os.Getwd()
	writeJSON(w, http.StatusOK, map[string]any{"cwd": cwd})
}
