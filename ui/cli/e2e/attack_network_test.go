package e2e

// Issue 10, class 9: the network is off by default in the sandbox. Each form tries
// to reach its own listener this test starts (on every address of the host), in
// bypassPermissions so the command runs: the listener sees no connection, and the
// failed command's result says how to allow the network. With --allow-network the
// same commands connect.

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// countingListener accepts connections on all addresses, counts them and answers
// each with a minimal HTTP response.
type countingListener struct {
	ln    net.Listener
	count atomic.Int32
}

func listen(t *testing.T) *countingListener {
	t.Helper()
	ln, err := net.Listen("tcp", "0.0.0.0:0")
	if err != nil {
		t.Fatal(err)
	}
	l := &countingListener{ln: ln}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			l.count.Add(1)
			_ = c.SetDeadline(time.Now().Add(2 * time.Second))
			_, _ = c.Write([]byte("HTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\nok\n"))
			c.Close()
		}
	}()
	return l
}

func (l *countingListener) port() int { return l.ln.Addr().(*net.TCPAddr).Port }

// hostIPv4 is a non-loopback IPv4 address of this host, or "".
func hostIPv4() string {
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() {
			return n.IP.String()
		}
	}
	return ""
}

// networkForms returns forms reaching port (%[1]d) on loopback or host (%[2]s).
func networkForms(host string) []string {
	forms := []string{
		"curl -sS --max-time 3 http://127.0.0.1:%[1]d/",
		"curl -sS --max-time 3 http://localhost:%[1]d/",
		"bash -c 'echo x > /dev/tcp/127.0.0.1/%[1]d'",
		"exec 3<>/dev/tcp/127.0.0.1/%[1]d && echo connected",
		"python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", %[1]d), 3)'",
		"perl -MIO::Socket::INET -e 'IO::Socket::INET->new(\"127.0.0.1:%[1]d\") or die \"connect: $!\\n\"'",
		"node -e 'require(\"net\").connect(%[1]d, \"127.0.0.1\").on(\"error\", e => { console.error(e.message); process.exit(1) }).on(\"connect\", () => process.exit(0))'",
		"git ls-remote http://127.0.0.1:%[1]d/x.git",
		"wget -q -T 3 -t 1 -O- http://127.0.0.1:%[1]d/",
		"curl -sS --max-time 3 http://127.1:%[1]d/",
		"curl -sS --max-time 3 http://2130706433:%[1]d/",
		"curl -sS --max-time 3 http://[::ffff:127.0.0.1]:%[1]d/",
		"curl -sS --max-time 3 -x http://127.0.0.1:%[1]d http://example.invalid/",
		"curl -sS --max-time 3 http://pincer-attack.invalid:%[1]d/", // fails to resolve: the hint is due too
	}
	if host != "" {
		forms = append(forms,
			"curl -sS --max-time 3 http://%[2]s:%[1]d/",
			"echo x > /dev/tcp/%[2]s/%[1]d",
		)
	}
	return forms
}

func TestAttackNetworkOffByDefault(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	host := hostIPv4()
	var forms []attackForm
	var listeners []*countingListener
	for i, f := range networkForms(host) {
		l := listen(t)
		listeners = append(listeners, l)
		forms = append(forms, attackForm{Name: fmt.Sprintf("net%02d:%s", i, strings.Fields(f)[0]), Cmd: fmt.Sprintf(f, l.port(), host)})
	}
	r := a.runForms("nw", forms, "--permission-mode", "bypassPermissions")
	time.Sleep(200 * time.Millisecond)
	for i, c := range r.Results {
		c, l := c, listeners[i]
		t.Run(c.Form.Name, func(t *testing.T) {
			if n := l.count.Load(); n > 0 {
				t.Errorf("ESCAPE: the listener got %d connection(s)\n  %s", n, c.describe())
			}
			if c.Decision != "allow" { // refused before it ran: no network hint is due
				t.Logf("not run: decision %q by %q", c.Decision, c.By)
				return
			}
			if c.IsError && !strings.Contains(c.Output, "--allow-network") && !strings.Contains(c.Output, "network = true") {
				t.Errorf("the failed command's result has no hint how to allow the network\n  %s", c.describe())
			}
		})
	}
}

func TestAttackNetworkAllowedByFlag(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	var forms []attackForm
	var listeners []*countingListener
	for i, f := range networkForms("")[:4] {
		l := listen(t)
		listeners = append(listeners, l)
		forms = append(forms, attackForm{Name: fmt.Sprintf("net%02d", i), Cmd: fmt.Sprintf(f, l.port(), "")})
	}
	r := a.runForms("na", forms, "--permission-mode", "bypassPermissions", "--allow-network")
	if r.Code != 0 {
		t.Fatalf("pincer run --allow-network: exit %d: %s", r.Code, r.Stderr)
	}
	time.Sleep(200 * time.Millisecond)
	for i, c := range r.Results {
		if listeners[i].count.Load() == 0 {
			t.Errorf("with --allow-network the command did not connect\n  %s", c.describe())
		}
	}
}

// TestAttackHostSockets: with the network off, a sandboxed command reaches no
// socket of the host: not an abstract Unix socket (it lives in the host's network
// namespace), not the user's ssh-agent (SSH_AUTH_SOCK, a socket under the temp
// directory, which the sandbox shows).
func TestAttackHostSockets(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	abstract := fmt.Sprintf("pincer-attack-%d", time.Now().UnixNano())
	agentDir, err := os.MkdirTemp("", "ssh-pincerattack")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(agentDir) })
	agent := filepath.Join(agentDir, "agent.1")
	a.extraEnv = append(a.extraEnv, "SSH_AUTH_SOCK="+agent)
	type sock struct {
		name, network, addr, cmd string
	}
	socks := []sock{
		{"abstract-unix", "unix", "@" + abstract, "curl -sS --max-time 3 --abstract-unix-socket " + abstract + " http://x/"},
		{"ssh-agent-by-path", "unix", agent, "curl -sS --max-time 3 --unix-socket " + agent + " http://x/"},
		{"ssh-agent-by-env", "", "", `curl -sS --max-time 3 --unix-socket "$SSH_AUTH_SOCK" http://x/`},
		{"ssh-agent-by-glob", "", "", `for s in /tmp/ssh-*/agent.*; do curl -sS --max-time 3 --unix-socket "$s" http://x/; done`},
	}
	var counts []*atomic.Int32
	listeners := map[string]*atomic.Int32{}
	for _, s := range socks {
		if s.network == "" {
			counts = append(counts, listeners[agent]) // the same agent socket
			continue
		}
		ln, err := net.Listen(s.network, s.addr)
		if err != nil {
			t.Fatalf("listen %s: %v", s.addr, err)
		}
		t.Cleanup(func() { ln.Close() })
		n := new(atomic.Int32)
		listeners[s.addr] = n
		counts = append(counts, n)
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				n.Add(1)
				_, _ = c.Write([]byte("HTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\nok\n"))
				c.Close()
			}
		}()
	}
	var forms []attackForm
	for _, s := range socks {
		forms = append(forms, attackForm{Name: s.name, Cmd: s.cmd})
	}
	agentCount := listeners[agent]
	r := a.runForms("hs", forms, "--permission-mode", "bypassPermissions")
	time.Sleep(200 * time.Millisecond)
	t.Run("abstract-unix", func(t *testing.T) {
		if n := counts[0].Load(); n > 0 {
			t.Errorf("ESCAPE: the host's abstract socket got %d connection(s)\n  %s", n, r.Results[0].describe())
		}
	})
	t.Run("ssh-agent", func(t *testing.T) {
		if n := agentCount.Load(); n > 0 {
			t.Errorf("ESCAPE: the user's ssh-agent socket got %d connection(s)\n  %s\n  %s\n  %s", n,
				r.Results[1].describe(), r.Results[2].describe(), r.Results[3].describe())
		}
	})
}
