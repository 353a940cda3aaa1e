package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"pincer/core/mcp/mcptest"
)

// TestTUIMCPApprove (tmux, the real binary): a project's .mcp.json server (a
// Go-SDK server over HTTP) is announced as needing approval and not
// connected; /mcp lists it with its URL; a, then y after the question was on
// screen, records the approval and connects it ("mcp: greeter ready, 1 tool").
func TestTUIMCPApprove(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not on PATH")
	}
	e := newEnv(t)
	g := mcptest.NewGoServer(t, false)
	e.write(".mcp.json", `{"mcpServers": {"greeter": {"type": "http", "url": "`+g.URL+`"}}}`)
	script := filepath.Join(t.TempDir(), "run.sh")
	body := fmt.Sprintf(`#!/bin/sh
cd '%s' || exit 1
export PINCER_HOME='%s' HOME='%s' PINCER_API_KEY=test-key PINCER_MODEL=fake/test-model LANG=C.UTF-8 LC_ALL=C.UTF-8
'%s' --base-url '%s' 2>'%s'
echo "pincer exited with $?"
exec sleep 600
`, e.repo, e.home, t.TempDir(), pincerBin, e.fake.BaseURL(), filepath.Join(e.home, "stderr.txt"))
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	tm := newTmux(t, 140, 40, script)
	tm.waitText("mcp: greeter (from .mcp.json) needs your approval before it starts: /mcp")
	if g.Headers.Load() != nil {
		t.Fatal("the unapproved project server was connected")
	}
	tm.typeText("/mcp")
	tm.keys("Enter")
	tm.waitText("MCP servers (1)", "greeter", "needs approval", "url: "+g.URL, "a approves")
	tm.keys("a")
	tm.waitText("Approve greeter for this project?", "y approves")
	time.Sleep(700 * time.Millisecond) // a person reads the question (y counts after 400 ms on screen)
	tm.keys("y")
	tm.waitText("mcp: greeter ready, 1 tool", "ready · 1 tool")
	if _, err := os.Stat(filepath.Join(e.home, "data", "mcp-approvals.json")); err != nil {
		t.Fatalf("no approval record: %v", err)
	}
}
