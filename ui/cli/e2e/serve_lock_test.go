package e2e

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
)

// TestSecondServeRefused: a second `pincer serve` with the same PINCER_HOME
// exits 1 naming the first's pid and address, and leaves the first's token
// file as it was (the first still answers with its token).
func TestSecondServeRefused(t *testing.T) {
	e := newEnv(t, openaitest.Reply{Text: "unused"})
	first := e.startServe("--base-url", e.fake.BaseURL(), "--no-sandbox")
	done := make(chan struct{})
	var stdout, stderr string
	var code int
	go func() {
		defer close(done)
		stdout, stderr, code = e.run("serve", "--base-url", e.fake.BaseURL(), "--no-sandbox")
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the second pincer serve did not exit in 30 s")
	}
	want := "pid " + strconv.Itoa(first.cmd.Process.Pid) + " at " + first.base
	if code != 1 || !strings.Contains(stderr, want) || stdout != "" {
		t.Fatalf("second serve: exit %d, stdout %q, stderr %q; want 1 naming %q", code, stdout, stderr, want)
	}
	if b, err := os.ReadFile(first.tokenFile); err != nil || strings.TrimSpace(string(b)) != first.token {
		t.Fatalf("the first's token file after the second start: %q %v", b, err)
	}
	if status := first.api(t, "GET", "/api/sessions", nil, nil); status != 200 {
		t.Fatalf("the first server with its token: %d", status)
	}
}
