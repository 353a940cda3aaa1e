package web

import (
	"net/http"

	"pincer/core/event"
)

// getTranscript is GET /api/sessions/{id}/transcript: the stored transcript
// messages (core/message's JSON), in order.
func (s *Server) getTranscript(w http.ResponseWriter, r *http.Request) {
	as, err := s.session(r)
	if err != nil {
		writeError(w, err)
		return
	}
	msgs, err := s.store.Transcript(r.Context(), as.ID)
	if err != nil {
		writeError(w, err)
		return
	}
	if msgs == nil {
		writeJSON(w, http.StatusOK, map[string]any{"messages": []any{}})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"messages": msgs})
}

// DiffCall is one tool call that changed files, for the diff preview.
type DiffCall struct {
	ToolCallID string `json:"toolCallId"`
	Name       string `json:"name"`
	Summary    string `json:"summary"`
	Diff       string `json:"diff"`
	Sequence   uint64 `json:"sequence"`
}

// getDiffs is GET /api/sessions/{id}/diffs: every tool.completed with a
// non-empty diff, in order.
func (s *Server) getDiffs(w http.ResponseWriter, r *http.Request) {
	as, err := s.session(r)
	if err != nil {
		writeError(w, err)
		return
	}
	calls := []DiffCall{}
	log := s.store.Log()
	after := uint64(0)
	for {
		evs, err := log.Read(r.Context(), as.ID, after, 1024)
		if err != nil {
			writeError(w, err)
			return
		}
		for _, ev := range evs {
			after = ev.Sequence
			if ev.Type != event.ToolCompleted {
				continue
			}
			var d event.ToolCompletedData
			if ev.Decode(&d) != nil || d.Diff == "" {
				continue
			}
			calls = append(calls, DiffCall{ToolCallID: d.ToolCallID, Name: d.Name, Summary: d.Summary, Diff: d.Diff, Sequence: ev.Sequence})
		}
		if len(evs) < 1024 {
			break
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"calls": calls})
}
