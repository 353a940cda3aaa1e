package remote

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"pincer/persist"
	"pincer/persist/memory"
)

// authServer serves a Memory store on a fresh socket, requiring the token it
// writes beside the socket, as RunDaemon does.
func authServer(t *testing.T) (socket, token string, backing *memory.Store) {
	t.Helper()
	socket = filepath.Join(socketDir(t), "s.sock")
	backing = memory.New()
	startAuthServer(t, socket, backing)
	tok, err := ReadToken(TokenFor(socket))
	if err != nil {
		t.Fatal(err)
	}
	return socket, tok, backing
}

func startAuthServer(t *testing.T, socket string, backing persist.Store) *Server {
	t.Helper()
	_ = os.Remove(socket)
	l, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := NewDaemonToken(TokenFor(socket))
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(backing, "test", "")
	srv.RequireToken(tok)
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { srv.Close() })
	return srv
}

// rawPost sends one request of the protocol over the socket with the given
// headers and returns the status code.
func rawPost(t *testing.T, socket, path string, headers map[string]string, body string) int {
	t.Helper()
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", socket)
	}}}
	req, _ := http.NewRequest(http.MethodPost, "http://pincer-store"+path, strings.NewReader(body))
	req.Header.Set(hdrProtocol, ProtocolVersion)
	req.Header.Set(hdrClient, "pid:1/attacker")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

// TestDaemonRefusesClientsWithoutTheToken: a script that finds the socket
// (the sandbox hides it, but suppose) cannot save a session rule, or do
// anything else, without the token, in any form it may try.
func TestDaemonRefusesClientsWithoutTheToken(t *testing.T) {
	socket, tok, backing := authServer(t)
	rules := `{"sessionId":"s1","rules":["allow:Bash"]}`
	attacks := map[string]map[string]string{
		"no token":             nil,
		"empty token":          {hdrToken: ""},
		"wrong token":          {hdrToken: strings.Repeat("0", len(tok))},
		"token prefix":         {hdrToken: tok[:len(tok)-1]},
		"token plus a byte":    {hdrToken: tok + "0"},
		"token in upper case":  {hdrToken: strings.ToUpper(tok)},
		"bearer authorization": {"Authorization": "Bearer " + tok[:8]},
		"token as client id":   {hdrClient: tok[:16]},
	}
	for name, h := range attacks {
		for _, method := range []string{"PutSessionRules", "GetSessionRules", "ListSessions", "Attach", "Ping", "AppendAudit"} {
			if code := rawPost(t, socket, pathPrefix+method, h, rules); code != http.StatusUnauthorized {
				t.Errorf("%s, %s: status %d, want 401", name, method, code)
			}
		}
	}
	if code := rawPost(t, socket, pathPrefix+"PutSessionRules?token="+tok, nil, rules); code != http.StatusUnauthorized {
		t.Errorf("token in the query: status %d, want 401", code)
	}
	if got, _ := backing.GetSessionRules(context.Background(), "s1"); len(got) != 0 {
		t.Fatalf("an unauthenticated client saved rules: %v", got)
	}
	// With the token the same request works: the check is the token, not the request.
	if code := rawPost(t, socket, pathPrefix+"PutSessionRules", map[string]string{hdrToken: tok}, rules); code != http.StatusOK {
		t.Errorf("with the token: status %d", code)
	}
}

// TestClientRefusedWithClearError: a Client whose token file is missing, or
// not private, gets ErrUnauthorized naming the cause.
func TestClientRefusedWithClearError(t *testing.T) {
	socket, _, _ := authServer(t)
	for name, spoil := range map[string]func(string){
		"token file removed":        func(p string) { os.Remove(p) },
		"token file world-readable": func(p string) { os.Chmod(p, 0o644) },
		"token file replaced":       func(p string) { os.Remove(p); os.WriteFile(p, []byte("guess\n"), 0o600) },
	} {
		t.Run(name, func(t *testing.T) {
			tokPath := TokenFor(socket)
			saved, _ := os.ReadFile(tokPath)
			spoil(tokPath)
			defer func() { os.Remove(tokPath); os.WriteFile(tokPath, saved, 0o600) }()
			c, err := Open(context.Background(), Options{Socket: socket})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			err = c.PutSessionRules(context.Background(), "s1", []string{"allow:Bash"})
			if err == nil || !strings.Contains(err.Error(), "refused this client") {
				t.Fatalf("err = %v, want a refusal", err)
			}
		})
	}
}

// TestClientFollowsANewToken: a client that read the token of a daemon that
// went away reads the new daemon's token once and goes on.
func TestClientFollowsANewToken(t *testing.T) {
	socket := filepath.Join(socketDir(t), "s.sock")
	backing := memory.New()
	srv := startAuthServer(t, socket, backing)
	c, err := Open(context.Background(), Options{Socket: socket})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if err := c.PutSessionRules(ctx, "s1", []string{"allow:Read"}); err != nil {
		t.Fatal(err)
	}
	srv.Close()
	startAuthServer(t, socket, backing) // a new token
	if got, err := c.GetSessionRules(ctx, "s1"); err != nil || len(got) != 1 {
		t.Fatalf("after a new daemon: %v %v", got, err)
	}
}

func TestCheckPeerUID(t *testing.T) {
	self := os.Getuid()
	cases := []struct {
		uid   int
		known bool
		ok    bool
	}{{self, true, true}, {self + 1, true, false}, {0, true, self == 0}, {65534, true, self == 65534}, {-1, false, true}}
	for _, c := range cases {
		err := CheckPeerUID(c.uid, c.known, self)
		if (err == nil) != c.ok {
			t.Errorf("CheckPeerUID(%d, %v, %d) = %v", c.uid, c.known, self, err)
		}
		if err != nil && !errors.Is(err, ErrUnauthorized) {
			t.Errorf("not ErrUnauthorized: %v", err)
		}
	}
}

// TestDaemonRefusesAnotherUID runs a client as another user (needs root:
// setuid in a child) with the right token and an open socket: refused, 403.
func TestDaemonRefusesAnotherUID(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to run a client as another user")
	}
	dir, err := os.MkdirTemp("", "pstuid")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	_ = os.Chmod(dir, 0o755)
	socket := filepath.Join(dir, "s.sock")
	backing := memory.New()
	startAuthServer(t, socket, backing)
	_ = os.Chmod(socket, 0o777) // only for the test: let the other user reach it
	tok, _ := ReadToken(TokenFor(socket))
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "client.test")
	data, _ := os.ReadFile(self)
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^TestPeerHelper$")
	cmd.Env = append(os.Environ(), "PINCER_PEER_HELPER_SOCKET="+socket, "PINCER_PEER_HELPER_TOKEN="+tok)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	code := 0
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "STATUS "); ok {
			code, _ = strconv.Atoi(v)
		}
	}
	if code != http.StatusForbidden {
		t.Fatalf("a client of uid 65534 with the token got %d, want 403\n%s", code, out)
	}
	if got, _ := backing.GetSessionRules(context.Background(), "s1"); len(got) != 0 {
		t.Fatalf("the other user saved rules: %v", got)
	}
}

// TestPeerHelper is the other user's client of TestDaemonRefusesAnotherUID.
func TestPeerHelper(t *testing.T) {
	socket := os.Getenv("PINCER_PEER_HELPER_SOCKET")
	if socket == "" {
		t.Skip("helper of TestDaemonRefusesAnotherUID")
	}
	code := rawPost(t, socket, pathPrefix+"PutSessionRules", map[string]string{hdrToken: os.Getenv("PINCER_PEER_HELPER_TOKEN")},
		`{"sessionId":"s1","rules":["allow:Bash"]}`)
	fmt.Printf("STATUS %d\n", code)
}
