package web

import (
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// The checks every request passes before a route sees it (guard), in this
// order: the Host header names the bound address (else 421 bad_host: a DNS
// rebinding page's requests carry its own name), an Origin header, when
// present, is http:// + such a host (else 403 bad_origin: another site's
// page), the token (Authorization: Bearer, or the pincer_token cookie; else
// 401 unauthorized), and a POST or DELETE body is application/json (else
// 415 bad_content_type: an HTML form cannot send that type without CORS,
// which the server never answers). Every response carries nosniff and
// no-referrer; /api ones no-store; the others (the panel) the CSP.

// CookieName is the cookie that carries the token for the panel
// (HttpOnly, SameSite=Strict, Path=/).
const CookieName = "pincer_token"

// PanelCSP is the Content-Security-Policy of the panel's responses: its own
// scripts, styles and images (and data: images) only, no framing, no forms,
// no base, connections to this server only.
const PanelCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// allowedHosts are the Host values accepted for a server bound to addr
// (host:port): 127.0.0.1:PORT, localhost:PORT, [::1]:PORT, and the bound host
// itself (an --allow-remote address).
func allowedHosts(addr string) map[string]bool {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return map[string]bool{}
	}
	hosts := map[string]bool{
		net.JoinHostPort("127.0.0.1", port): true,
		net.JoinHostPort("localhost", port): true,
		net.JoinHostPort("::1", port):       true,
	}
	if host != "" && host != "0.0.0.0" && host != "::" {
		hosts[net.JoinHostPort(host, port)] = true
	}
	return hosts
}

// hostOK reports whether a Host header is one of hosts (case-insensitive).
func hostOK(hosts map[string]bool, host string) bool {
	return hosts[strings.ToLower(host)]
}

// originOK reports whether an Origin header is http:// + one of hosts, with no
// path, query or user.
func originOK(hosts map[string]bool, origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Scheme != "http" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return false
	}
	return hostOK(hosts, u.Host)
}

// jsonContentType reports whether a Content-Type header is application/json
// (parameters such as charset allowed).
func jsonContentType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "application/json"
}

// guard wraps next with the checks above; the token query of `GET
// /?token=TOKEN` and the one-time code of `GET /?login=CODE` (login.go) are
// handled here (the cookie set, 303 to /).
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		api := strings.HasPrefix(r.URL.Path, "/api/") || r.URL.Path == "/api"
		if api {
			h.Set("Cache-Control", "no-store")
		} else {
			h.Set("Content-Security-Policy", PanelCSP)
		}
		if !hostOK(s.hosts, r.Host) {
			s.refuse(w, r, api, errorf(http.StatusMisdirectedRequest, CodeBadHost, "Host %s is not this server's address", strconv.Quote(r.Host)))
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !originOK(s.hosts, o) {
			s.refuse(w, r, api, errorf(http.StatusForbidden, CodeBadOrigin, "Origin %s is not this server", strconv.Quote(o)))
			return
		}
		if r.Method == http.MethodGet && r.URL.Path == "/" && r.URL.Query().Has("token") {
			s.tokenLogin(w, r)
			return
		}
		if r.Method == http.MethodGet && r.URL.Path == "/" && r.URL.Query().Has("login") {
			s.codeLogin(w, r)
			return
		}
		if !s.authorized(r) {
			s.refuse(w, r, api, errorf(http.StatusUnauthorized, CodeUnauthorized, "a token is needed: Authorization: Bearer TOKEN (the token file pincer serve printed), or open the printed URL"))
			return
		}
		if (r.Method == http.MethodPost || r.Method == http.MethodDelete) && !jsonContentType(r.Header.Get("Content-Type")) {
			s.refuse(w, r, api, errorf(http.StatusUnsupportedMediaType, CodeBadContentType, "the body must be Content-Type: application/json"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// authorized reports whether r carries the token: Authorization: Bearer, or
// the cookie.
func (s *Server) authorized(r *http.Request) bool {
	if a := r.Header.Get("Authorization"); a != "" {
		scheme, tok, ok := strings.Cut(a, " ")
		return ok && strings.EqualFold(scheme, "Bearer") && tokenEqual(strings.TrimSpace(tok), s.opts.Token)
	}
	c, err := r.Cookie(CookieName)
	return err == nil && tokenEqual(c.Value, s.opts.Token)
}

// tokenLogin is `GET /?token=TOKEN`: the right token sets the cookie and
// answers 303 to / (the token leaves the address bar); a wrong one is 401.
func (s *Server) tokenLogin(w http.ResponseWriter, r *http.Request) {
	if !tokenEqual(r.URL.Query().Get("token"), s.opts.Token) {
		s.refuse(w, r, false, errorf(http.StatusUnauthorized, CodeUnauthorized, "wrong token"))
		return
	}
	s.setTokenCookie(w)
}

// setTokenCookie answers a login: the token's cookie, 303 to / (the token or
// code leaves the address bar).
func (s *Server) setTokenCookie(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: s.opts.Token, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode})
	w.Header().Set("Location", "/")
	w.WriteHeader(http.StatusSeeOther)
}

// refuse answers a refused request: the JSON error under /api, a plain page
// with the same text elsewhere (the panel's index).
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, api bool, e *apiError) {
	s.logf("refused %s %s: %s", r.Method, r.URL.Path, e.Code)
	if api {
		writeError(w, e)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(e.Status)
	_, _ = w.Write([]byte(strconv.Itoa(e.Status) + " " + e.Code + ": " + e.Message + "\n"))
}
