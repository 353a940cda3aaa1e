package web

import (
	"net/http"
	"strings"
	"testing"
)

// TestBypassNeedsTheServersFlag: a switch to bypassPermissions over the API
// is 403 bypass_not_allowed on a server started without
// --allow-dangerously-skip-permissions (Options.AllowBypass), and the mode is
// unchanged; other modes switch; with the flag bypassPermissions switches too.
func TestBypassNeedsTheServersFlag(t *testing.T) {
	e := newTestEnv(t)
	id := e.newSession()
	var s Session
	e.call("POST", "/api/sessions/"+id+"/mode", map[string]string{"mode": "plan"}, http.StatusOK, &s)
	b := e.call("POST", "/api/sessions/"+id+"/mode", map[string]string{"mode": "bypassPermissions"}, http.StatusForbidden, nil)
	if errorCode(b) != CodeBypassNotAllowed || !strings.Contains(string(b), "--allow-dangerously-skip-permissions") {
		t.Fatalf("bypass without the flag: %s", b)
	}
	e.call("GET", "/api/sessions/"+id, nil, http.StatusOK, &s)
	if s.Mode != "plan" {
		t.Fatalf("the refused switch changed the mode: %+v", s)
	}
	e.srv.opts.AllowBypass = true
	e.call("POST", "/api/sessions/"+id+"/mode", map[string]string{"mode": "bypassPermissions"}, http.StatusOK, &s)
	if s.Mode != "bypassPermissions" {
		t.Fatalf("bypass with the flag: %+v", s)
	}
}
