package mcp_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"pincer/core/mcp"
)

// A crashing stdio server's reason quotes its last stderr lines (controls
// removed) and names its log file.
func TestFailureQuotesStderrAndLog(t *testing.T) {
	logDir := t.TempDir()
	m := newManager(t, mcp.Options{LogDir: logDir, MinBackoff: time.Hour}, mcp.ServerConfig{
		Name: "crash", Transport: mcp.TransportStdio, Command: "sh",
		Args: []string{"-c", "printf 'starting\\n\\033[31mboom\\033[0m\\n' >&2; exit 3"}, Approved: true})
	waitFor(t, "failure", func() bool { st, _ := m.State("crash"); return st.Status == mcp.StatusFailed })
	st, _ := m.State("crash")
	log := filepath.Join(logDir, "crash.log")
	if !strings.Contains(st.Reason, "stderr: starting | boom (log: "+log+")") || strings.Contains(st.Reason, "\x1b") {
		t.Errorf("reason %q", st.Reason)
	}
	if st.LastError == "" || strings.Contains(st.LastError, "reconnecting") {
		t.Errorf("last error %q", st.LastError)
	}
}

// The quoted stderr is cut to its last lines and characters; a server that
// wrote nothing still names its log.
func TestStderrTailBounds(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.log")
	long := strings.Repeat("x", 500)
	if err := os.WriteFile(p, []byte("old run\n--- marker\na\nb\nc\nd\n"+long+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got := mcp.StderrTail(p, int64(len("old run\n")))
	if !strings.HasPrefix(got, "…") || len([]rune(got)) != 300 || strings.Contains(got, "old run") {
		t.Errorf("tail %q (%d runes)", got, len([]rune(got)))
	}
	if got := mcp.StderrTail(p, 0); !strings.Contains(got, "x") {
		t.Errorf("tail %q", got)
	}
	short := filepath.Join(dir, "y.log")
	os.WriteFile(short, []byte("one\n--- stopped\ntwo\nthree\nfour\n"), 0o600)
	if got := mcp.StderrTail(short, 0); got != "two | three | four" {
		t.Errorf("tail %q", got)
	}
}

// A server that does not answer in time fails with "timed out after D
// (HINT)" while it keeps retrying, and the retries keep LastError, so a view
// notices the failure once.
func TestConnectTimeoutReason(t *testing.T) {
	m := newManager(t, mcp.Options{ConnectTimeout: 300 * time.Millisecond, TimeoutHint: "MCP_TIMEOUT",
		MinBackoff: 50 * time.Millisecond, MaxBackoff: 50 * time.Millisecond},
		mcp.ServerConfig{Name: "slow", Transport: mcp.TransportStdio, Command: "sleep", Args: []string{"100"}, Approved: true})
	var mu sync.Mutex
	var seen []mcp.ServerState
	cancel := m.Subscribe(func(st mcp.ServerState) { mu.Lock(); seen = append(seen, st); mu.Unlock() })
	defer cancel()
	waitFor(t, "two failures", func() bool {
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for _, st := range seen {
			if st.Status == mcp.StatusFailed {
				n++
			}
		}
		return n >= 2
	})
	mu.Lock()
	defer mu.Unlock()
	for _, st := range seen {
		if st.Status == mcp.StatusFailed && !strings.HasPrefix(st.Reason, "timed out after 300ms (MCP_TIMEOUT)") {
			t.Errorf("reason %q", st.Reason)
		}
		if st.Status == mcp.StatusConnecting && !strings.HasPrefix(st.LastError, "timed out after 300ms (MCP_TIMEOUT); log: ") {
			t.Errorf("connecting again: last error %q", st.LastError)
		}
	}
}

// A probe of a server that does not answer says it timed out, not "connecting".
func TestProbeTimesOut(t *testing.T) {
	st := mcp.Probe(context.Background(), mcp.ServerConfig{Name: "slow", Transport: mcp.TransportStdio, Command: "sleep", Args: []string{"100"}, Approved: true},
		mcp.Options{TimeoutHint: "--timeout / MCP_TIMEOUT"}, 200*time.Millisecond)
	if st.Status != mcp.StatusFailed || st.Reason != "timed out after 200ms (--timeout / MCP_TIMEOUT)" {
		t.Errorf("probe: %s %q", st.Status, st.Reason)
	}
}

// newManager starts servers without waiting for them.
func newManager(t *testing.T, opts mcp.Options, servers ...mcp.ServerConfig) *mcp.Manager {
	t.Helper()
	if opts.LogDir == "" {
		opts.LogDir = t.TempDir()
	}
	m := mcp.NewManager(opts)
	t.Cleanup(func() { m.Close() })
	m.Start(context.Background(), servers)
	return m
}
