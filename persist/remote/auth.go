package remote

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Client authentication (issue 10, class 6). The socket is mode 0600 in a 0700
// directory, but code of the same user — a script the model ran in the
// sandbox — could otherwise call the daemon and, say, save an "allow Bash"
// session rule. So the daemon also demands a token: 32 random bytes (hex) it
// writes at start-up to a 0600 file beside the socket (DaemonFiles.Token), in
// the run directory the sandbox hides, and every request carries it in the
// Pincer-Store-Token header. And on Linux it checks the peer's uid
// (SO_PEERCRED): a client of another user, root included, is refused even
// with the token.

// hdrToken carries the client's copy of the daemon's token.
const hdrToken = "Pincer-Store-Token"

// ErrUnauthorized is the error of a request the daemon refused: no token, a
// wrong one, or a client of another user.
var ErrUnauthorized = errors.New("the store daemon refused this client")

// TokenFor is the token file of the daemon serving on socket: the socket's path
// with ".token" in place of ".sock" (or appended).
func TokenFor(socket string) string {
	return strings.TrimSuffix(socket, ".sock") + ".token"
}

// NewDaemonToken makes a fresh token and writes it to path (mode 0600, written
// to a temporary file and renamed over path, so a reader never sees half of
// it). It returns the token.
func NewDaemonToken(path string) (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("persist: make the daemon token: %w", err)
	}
	tok := hex.EncodeToString(b[:])
	f, err := os.CreateTemp(filepath.Dir(path), ".token-*")
	if err != nil {
		return "", fmt.Errorf("persist: write the daemon token: %w", err)
	}
	defer os.Remove(f.Name())
	if err := f.Chmod(0o600); err == nil {
		_, err = f.WriteString(tok + "\n")
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		return "", fmt.Errorf("persist: write the daemon token: %w", err)
	}
	return tok, nil
}

// ReadToken reads the daemon token at path. It refuses a file that is not a
// regular file of this user with mode 0600 or stricter: a token others could
// have written (or read) is no proof.
func ReadToken(path string) (string, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return "", fmt.Errorf("persist: read the store daemon's token: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.Mode().IsRegular() || fi.Mode().Perm()&0o077 != 0 || (ok && int(st.Uid) != os.Getuid()) {
		return "", fmt.Errorf("persist: %s is not a private file of this user: refusing it as the store daemon's token", path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("persist: read the store daemon's token: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}

// RequireToken makes the server refuse (401) every request whose
// Pincer-Store-Token header is not token, and (403) every request from a peer
// of another uid. Call it before Serve.
func (s *Server) RequireToken(token string) {
	s.token = token
	s.httpSrv.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		uid, known := peerUID(c)
		return context.WithValue(ctx, peerKey{}, peer{uid: uid, known: known})
	}
}

// peerKey keys the connection's peer in a request's context.
type peerKey struct{}

// peer is what the kernel says of a connection's other end.
type peer struct {
	uid   int
	known bool
}

// authorize checks a request against RequireToken's settings; nil when the
// server requires nothing.
func (s *Server) authorize(r *http.Request) (int, error) {
	if s.token == "" {
		return 0, nil
	}
	p, _ := r.Context().Value(peerKey{}).(peer)
	if err := CheckPeerUID(p.uid, p.known, os.Getuid()); err != nil {
		return http.StatusForbidden, err
	}
	got := r.Header.Get(hdrToken)
	if got == "" {
		return http.StatusUnauthorized, fmt.Errorf("%w: no token (a pincer client reads it from the 0600 file beside the socket)", ErrUnauthorized)
	}
	if subtle.ConstantTimeCompare([]byte(got), []byte(s.token)) != 1 {
		return http.StatusUnauthorized, fmt.Errorf("%w: wrong token", ErrUnauthorized)
	}
	return 0, nil
}

// CheckPeerUID is the daemon's peer check: a client whose uid is known
// (SO_PEERCRED) must be self, the daemon's own uid — another user, root
// included, is refused. An unknown uid (no SO_PEERCRED on this system) passes:
// the token still has to match.
func CheckPeerUID(uid int, known bool, self int) error {
	if !known || uid == self {
		return nil
	}
	return fmt.Errorf("%w: its uid is %d, and this daemon serves uid %d only", ErrUnauthorized, uid, self)
}

// clientToken returns the token this client sends, reading the token file on
// first use and again when reload is set (the daemon restarted with a new
// one). "" when the file cannot be read: the daemon then refuses the request
// with a clear error.
func (c *Client) clientToken(reload bool) string {
	c.tokenMu.Lock()
	defer c.tokenMu.Unlock()
	if c.token == "" || reload {
		if tok, err := ReadToken(c.opts.Token); err == nil {
			c.token = tok
		}
	}
	return c.token
}
