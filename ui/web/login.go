package web

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// LoginCodeTTL is how long a login code stays good (unused).
const LoginCodeTTL = 10 * time.Minute

// loginCodes are the one-time codes of `GET /?login=CODE`: the URL pincer
// serve prints carries one instead of the token, so what stays in the
// browser's history (readable by a process that can read the profile) is a
// code already spent, not the token. Safe for concurrent use.
type loginCodes struct {
	now func() time.Time // time.Now; a test's clock

	mu    sync.Mutex
	codes map[string]time.Time // code -> when it expires
}

// NewLoginCode mints a one-time login code for the printed URL
// (`http://ADDR/?login=CODE`): 16 random bytes as 32 hex digits, good once,
// for LoginCodeTTL; exchanged for the token's cookie, then dead.
func (s *Server) NewLoginCode() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("login code: %w", err)
	}
	code := hex.EncodeToString(b[:])
	l := &s.logins
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	for c, exp := range l.codes { // spent by expiry: drop them
		if !now.Before(exp) {
			delete(l.codes, c)
		}
	}
	l.codes[code] = now.Add(LoginCodeTTL)
	return code, nil
}

// spend reports whether code is a live login code, and kills it.
func (l *loginCodes) spend(code string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for c, exp := range l.codes {
		if tokenEqual(code, c) { // constant time per code
			delete(l.codes, c)
			return l.now().Before(exp)
		}
	}
	return false
}

// codeLogin is `GET /?login=CODE`: a live code sets the token's cookie and
// answers 303 to /, and is spent; a used, expired or unknown one is 401.
func (s *Server) codeLogin(w http.ResponseWriter, r *http.Request) {
	if !s.logins.spend(r.URL.Query().Get("login")) {
		s.refuse(w, r, false, errorf(http.StatusUnauthorized, CodeUnauthorized,
			"this login code is used, expired or unknown: restart pincer serve for a new one, or open /?token=TOKEN with the token it printed"))
		return
	}
	s.setTokenCookie(w)
}
