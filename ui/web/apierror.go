package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// Error codes of the API's JSON errors (`{"error":{"code":CODE,"message":TEXT}}`),
// stable: README lists them.
const (
	CodeUnauthorized     = "unauthorized"       // 401: no token, or a wrong one
	CodeBadHost          = "bad_host"           // 421: Host is not the bound address (DNS rebinding)
	CodeBadOrigin        = "bad_origin"         // 403: Origin is not http:// + an accepted Host
	CodeBadContentType   = "bad_content_type"   // 415: a POST/DELETE body that is not application/json
	CodeBadRequest       = "bad_request"        // 400: bad JSON, an unknown field, a bad value (the message names the field)
	CodeNotFound         = "not_found"          // 404: no such session, request or route
	CodeLeaseHeld        = "lease_held"         // 409: another process writes the session (the message names it)
	CodeTurnRunning      = "turn_running"       // 409: the session runs a turn already
	CodeNoTurn           = "no_turn"            // 409: cancel with no turn running
	CodeUnknownCommand   = "unknown_command"    // 400: a turn's input starts with a /name nobody knows (the message names it)
	CodeNotAvailable     = "not_available"      // 400: a /name that needs the workbench's screen
	CodeBypassNotAllowed = "bypass_not_allowed" // 403: a switch to bypassPermissions on a server started without --allow-dangerously-skip-permissions
	CodeInternal         = "internal"           // 500
)

// apiError is an error the API answers with: HTTP status, code, message.
type apiError struct {
	Status  int
	Code    string
	Message string
}

func (e *apiError) Error() string { return e.Code + ": " + e.Message }

// errorf builds an apiError.
func errorf(status int, code, format string, a ...any) *apiError {
	return &apiError{Status: status, Code: code, Message: fmt.Sprintf(format, a...)}
}

// writeJSON answers status with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	_ = enc.Encode(v)
}

// writeError answers err as the API's JSON error: an *apiError as it is,
// anything else as internal.
func writeError(w http.ResponseWriter, err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		ae = &apiError{Status: http.StatusInternalServerError, Code: CodeInternal, Message: err.Error()}
	}
	type body struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	writeJSON(w, ae.Status, map[string]body{"error": {Code: ae.Code, Message: ae.Message}})
}
