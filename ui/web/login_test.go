package web

import (
	"net/http"
	"testing"
	"time"
)

// TestLoginCodeOnce: a login code sets the token's cookie once (303 to /);
// the same code again is 401 with no cookie, as is an unknown one and one
// past LoginCodeTTL.
func TestLoginCodeOnce(t *testing.T) {
	e := newTestEnv(t)
	now := time.Now()
	e.srv.logins.mu.Lock()
	e.srv.logins.now = func() time.Time { return now }
	e.srv.logins.mu.Unlock()
	noAuth := map[string]string{"Authorization": ""}
	cookieOf := func(resp *http.Response) string {
		for _, c := range resp.Cookies() {
			if c.Name == CookieName {
				return c.Value
			}
		}
		return ""
	}
	code, err := e.srv.NewLoginCode()
	if err != nil || len(code) != 32 {
		t.Fatalf("NewLoginCode = %q, %v", code, err)
	}
	resp, _ := e.do("GET", "/?login="+code, nil, noAuth)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" || cookieOf(resp) != e.token {
		t.Fatalf("first use: %d Location %q cookie %q", resp.StatusCode, resp.Header.Get("Location"), cookieOf(resp))
	}
	for name, c := range map[string]string{"again": code, "unknown": "0123456789abcdef0123456789abcdef", "empty": ""} {
		if resp, b := e.do("GET", "/?login="+c, nil, noAuth); resp.StatusCode != http.StatusUnauthorized || cookieOf(resp) != "" {
			t.Errorf("%s: %d %s cookie %q, want 401 and none", name, resp.StatusCode, b, cookieOf(resp))
		}
	}
	late, err := e.srv.NewLoginCode()
	if err != nil {
		t.Fatal(err)
	}
	e.srv.logins.mu.Lock()
	now = now.Add(LoginCodeTTL)
	e.srv.logins.mu.Unlock()
	if resp, _ := e.do("GET", "/?login="+late, nil, noAuth); resp.StatusCode != http.StatusUnauthorized || cookieOf(resp) != "" {
		t.Errorf("expired: %d cookie %q, want 401", resp.StatusCode, cookieOf(resp))
	}
}
