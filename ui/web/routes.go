package web

import (
	"net/http"
)

// routes is the API's table (README "pincer serve" lists it; stable).
func (s *Server) routes() *http.ServeMux {
	m := http.NewServeMux()
	m.HandleFunc("GET /api/sessions", s.listSessions)
	m.HandleFunc("POST /api/sessions", s.createSession)
	m.HandleFunc("GET /api/sessions/{id}", s.getSession)
	m.HandleFunc("GET /api/sessions/{id}/transcript", s.getTranscript)
	m.HandleFunc("GET /api/sessions/{id}/diffs", s.getDiffs)
	m.HandleFunc("POST /api/sessions/{id}/turns", s.submitTurn)
	m.HandleFunc("POST /api/sessions/{id}/cancel", s.cancelTurn)
	m.HandleFunc("POST /api/sessions/{id}/mode", s.setMode)
	m.HandleFunc("POST /api/sessions/{id}/model", s.setModel)
	m.HandleFunc("GET /api/sessions/{id}/events", s.streamEvents)
	m.HandleFunc("GET /api/approvals", s.listApprovals)
	m.HandleFunc("POST /api/approvals/{requestId}", s.resolveApproval)
	m.HandleFunc("GET /api/server", s.serverInfo)
	m.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, errorf(http.StatusNotFound, CodeNotFound, "no route %s %s", r.Method, r.URL.Path))
	})
	m.HandleFunc("/", s.panel)
	return m
}
