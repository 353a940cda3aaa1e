package web

import (
	"bytes"
	"errors"
	"net/http"
	"strings"

	"pincer/core/app"
	"pincer/core/permission"
)

// setMode is POST /api/sessions/{id}/mode {"mode":"..."}: the permission
// mode of the session's Run (every session of that workspace, as the
// workbench shows one mode), recorded on the session as mode.changed. Any
// mode /mode accepts (permission.ParseMode); another is bad_request.
// bypassPermissions only when the server allows it (Options.AllowBypass), else
// 403 bypass_not_allowed and the mode is unchanged.
func (s *Server) setMode(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Mode string `json:"mode"`
	}
	if err := decodeBody(w, r, &body); err != nil {
		writeError(w, err)
		return
	}
	m, err := permission.ParseMode(body.Mode)
	if err != nil || body.Mode == "" {
		writeError(w, errorf(http.StatusBadRequest, CodeBadRequest, "field mode: %s", modeProblem(body.Mode, err)))
		return
	}
	if m == permission.ModeBypass && !s.opts.AllowBypass {
		writeError(w, errorf(http.StatusForbidden, CodeBypassNotAllowed, "mode bypassPermissions: this server was started without --allow-dangerously-skip-permissions"))
		return
	}
	as, err := s.session(r)
	if err != nil {
		writeError(w, err)
		return
	}
	ws, err := s.sessionWorkspace(r.Context(), as.ID, as.Cwd)
	if err != nil {
		writeError(w, err)
		return
	}
	if err := ws.be.SetMode(r.Context(), as.ID, m); err != nil {
		writeError(w, err)
		return
	}
	s.writeSession(w, r, http.StatusOK, as.ID)
}

// modeProblem is why a mode was refused.
func modeProblem(mode string, err error) string {
	if mode == "" {
		return "missing"
	}
	return err.Error()
}

// setModel is POST /api/sessions/{id}/model {"model":"name"}: as `/model
// switch NAME` in the workbench (a model of the session's provider, for this
// session; recorded as model.changed). A model the command refuses is
// bad_request with its words; a running turn is turn_running.
func (s *Server) setModel(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Model string `json:"model"`
	}
	if err := decodeBody(w, r, &body); err != nil {
		writeError(w, err)
		return
	}
	name := strings.TrimSpace(body.Model)
	if name == "" || strings.ContainsAny(name, " \t\r\n") {
		writeError(w, errorf(http.StatusBadRequest, CodeBadRequest, "field model: want one model name"))
		return
	}
	as, err := s.session(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if s.turnRunning(as.ID) {
		writeError(w, errorf(http.StatusConflict, CodeTurnRunning, "session %s runs a turn: switch the model after it ends", as.ID))
		return
	}
	ws, err := s.sessionWorkspace(r.Context(), as.ID, as.Cwd)
	if err != nil {
		writeError(w, err)
		return
	}
	cmd, err := ws.be.ModelCommand(as.ID, []string{"switch", name})
	if err != nil {
		writeError(w, errorf(http.StatusBadRequest, CodeBadRequest, "field model: %v", err))
		return
	}
	var out bytes.Buffer
	var notes []string
	err = cmd.Run(r.Context(), app.ModelIO{Prompter: noPrompter{}, Out: &out,
		Note: func(text string) { notes = append(notes, text) }, Notify: func(level, text string) {
			if level != "info" {
				notes = append(notes, text)
			}
		}})
	switch {
	case err != nil && strings.Contains(err.Error(), "turn is running"):
		writeError(w, errorf(http.StatusConflict, CodeTurnRunning, "%v", err))
		return
	case err != nil:
		writeError(w, errorf(http.StatusBadRequest, CodeBadRequest, "field model: %v", err))
		return
	}
	for _, n := range notes {
		s.logf("session %s: /model switch: %s", as.ID, n)
	}
	s.writeSession(w, r, http.StatusOK, as.ID)
}

// noPrompter answers no question: the API's model switch names its model,
// and a command that would ask is refused.
type noPrompter struct{}

var errWouldAsk = errors.New("the command would ask a question: give the whole model name")

// Ask refuses.
func (noPrompter) Ask(string, string) (string, error) { return "", errWouldAsk }

// AskSecret refuses.
func (noPrompter) AskSecret(string) (string, error) { return "", errWouldAsk }

// Confirm refuses.
func (noPrompter) Confirm(string) (bool, error) { return false, errWouldAsk }

// Choose refuses.
func (noPrompter) Choose(string, []string, int) (int, error) { return 0, errWouldAsk }
