package web

import (
	"net/http"
	"os"
	"strings"
	"testing"
)

// TestTokenRequired: every route — API, event stream, panel, static — needs
// the token, as a bearer header or the cookie; `GET /?token=` with the right
// one sets the cookie and redirects to /, with a wrong one it is 401.
func TestTokenRequired(t *testing.T) {
	e := newTestEnv(t)
	id := e.newSession()
	paths := []string{"/api/sessions", "/api/sessions/" + id, "/api/sessions/" + id + "/events", "/api/approvals", "/", "/static/index.html"}
	for _, p := range paths {
		for _, tc := range []struct {
			name string
			hdr  map[string]string
		}{
			{"none", map[string]string{"Authorization": ""}},
			{"wrong bearer", map[string]string{"Authorization": "Bearer " + strings.Repeat("0", 64)}},
			{"token as basic", map[string]string{"Authorization": "Basic " + e.token}},
			{"wrong cookie", map[string]string{"Authorization": "", "Cookie": CookieName + "=" + strings.Repeat("a", 64)}},
			{"empty bearer", map[string]string{"Authorization": "Bearer "}},
		} {
			resp, b := e.do("GET", p, nil, tc.hdr)
			if resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("%s with %s: %d, want 401", p, tc.name, resp.StatusCode)
			}
			if strings.HasPrefix(p, "/api/") && errorCode(b) != CodeUnauthorized {
				t.Errorf("%s with %s: body %s, want code unauthorized", p, tc.name, b)
			}
		}
	}
	if resp, _ := e.do("GET", "/api/sessions", nil, map[string]string{"Authorization": "", "Cookie": CookieName + "=" + e.token}); resp.StatusCode != http.StatusOK {
		t.Errorf("the right cookie: %d", resp.StatusCode)
	}
	resp, _ := e.do("GET", "/?token="+e.token, nil, map[string]string{"Authorization": ""})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
		t.Fatalf("GET /?token=RIGHT: %d Location %q, want 303 to /", resp.StatusCode, resp.Header.Get("Location"))
	}
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == CookieName {
			cookie = c
		}
	}
	if cookie == nil || cookie.Value != e.token || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode || cookie.Path != "/" {
		t.Fatalf("cookie set: %+v", cookie)
	}
	if resp, _ := e.do("GET", "/?token="+strings.Repeat("1", 64), nil, map[string]string{"Authorization": ""}); resp.StatusCode != http.StatusUnauthorized || len(resp.Cookies()) != 0 {
		t.Fatalf("GET /?token=WRONG: %d, cookies %v", resp.StatusCode, resp.Cookies())
	}
}

// TestHostOriginContentType: a Host that is not the bound address is 421
// bad_host (DNS rebinding), an Origin that is not this server 403
// bad_origin, a POST body not declared JSON 415 bad_content_type — each
// before any work, even with the right token.
func TestHostOriginContentType(t *testing.T) {
	e := newTestEnv(t)
	port := e.hs.Listener.Addr().String()[strings.LastIndex(e.hs.Listener.Addr().String(), ":"):]
	for _, tc := range []struct {
		name   string
		method string
		path   string
		hdr    map[string]string
		status int
		code   string
	}{
		{"loopback host", "GET", "/api/sessions", nil, 200, ""},
		{"localhost host", "GET", "/api/sessions", map[string]string{"Host": "localhost" + port}, 200, ""},
		{"[::1] host", "GET", "/api/sessions", map[string]string{"Host": "[::1]" + port}, 200, ""},
		{"rebinding host", "GET", "/api/sessions", map[string]string{"Host": "evil.example" + port}, 421, CodeBadHost},
		{"other port", "GET", "/api/sessions", map[string]string{"Host": "127.0.0.1:1"}, 421, CodeBadHost},
		{"no port", "GET", "/api/sessions", map[string]string{"Host": "127.0.0.1"}, 421, CodeBadHost},
		{"rebinding host, panel", "GET", "/", map[string]string{"Host": "evil.example" + port}, 421, ""},
		{"same origin", "GET", "/api/sessions", map[string]string{"Origin": "http://127.0.0.1" + port}, 200, ""},
		{"localhost origin", "GET", "/api/sessions", map[string]string{"Origin": "http://localhost" + port}, 200, ""},
		{"evil origin", "GET", "/api/sessions", map[string]string{"Origin": "http://evil"}, 403, CodeBadOrigin},
		{"https origin", "GET", "/api/sessions", map[string]string{"Origin": "https://127.0.0.1" + port}, 403, CodeBadOrigin},
		{"null origin", "GET", "/api/sessions", map[string]string{"Origin": "null"}, 403, CodeBadOrigin},
		{"origin other port", "POST", "/api/sessions", map[string]string{"Origin": "http://127.0.0.1:1", "Content-Type": "application/json"}, 403, CodeBadOrigin},
		{"form post", "POST", "/api/sessions", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415, CodeBadContentType},
		{"text post", "POST", "/api/approvals/perm-x", map[string]string{"Content-Type": "text/plain"}, 415, CodeBadContentType},
		{"no type", "POST", "/api/sessions", map[string]string{"Content-Type": ""}, 415, CodeBadContentType},
		{"json with charset", "POST", "/api/approvals/perm-x", map[string]string{"Content-Type": "application/json; charset=utf-8"}, 404, CodeNotFound},
	} {
		var body any
		if tc.method == "POST" {
			body = map[string]string{"decision": "allow"}
		}
		resp, b := e.do(tc.method, tc.path, body, tc.hdr)
		if resp.StatusCode != tc.status || (tc.code != "" && errorCode(b) != tc.code) {
			t.Errorf("%s: %d %s, want %d %s", tc.name, resp.StatusCode, b, tc.status, tc.code)
		}
		for k := range resp.Header {
			if strings.HasPrefix(strings.ToLower(k), "access-control-") {
				t.Errorf("%s: CORS header %s", tc.name, k)
			}
		}
	}
}

// TestResponseHeaders: nosniff and no-referrer everywhere, no-store on the
// API, the CSP on the panel; no CORS answer to a preflight.
func TestResponseHeaders(t *testing.T) {
	e := newTestEnv(t)
	resp, _ := e.do("GET", "/api/sessions", nil, nil)
	if resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("Referrer-Policy") != "no-referrer" ||
		resp.Header.Get("Cache-Control") != "no-store" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Errorf("API headers: %v", resp.Header)
	}
	resp, _ = e.do("GET", "/", nil, nil)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Security-Policy") != PanelCSP ||
		resp.Header.Get("X-Content-Type-Options") != "nosniff" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Errorf("panel: %d %v", resp.StatusCode, resp.Header)
	}
	resp, b := e.do("GET", "/static/app.js", nil, nil)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/javascript") || len(b) == 0 {
		t.Errorf("static: %d %v", resp.StatusCode, resp.Header)
	}
	if resp, _ := e.do("POST", "/", map[string]string{}, nil); resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /: %d", resp.StatusCode)
	}
	var info struct{ Cwd string }
	e.call("GET", "/api/server", nil, http.StatusOK, &info)
	if wd, _ := os.Getwd(); info.Cwd != wd {
		t.Errorf("server cwd %q, want %q", info.Cwd, wd)
	}
	resp, _ = e.do("OPTIONS", "/api/sessions", nil, map[string]string{"Origin": "http://evil", "Access-Control-Request-Method": "POST"})
	if resp.StatusCode != http.StatusForbidden || resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("preflight: %d %v", resp.StatusCode, resp.Header)
	}
}
