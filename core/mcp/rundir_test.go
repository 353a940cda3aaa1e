package mcp_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/core/mcp"
	"pincer/core/mcp/mcptest"
	"pincer/tools"
)

// TestServerDoesNotRunTheWorkspacesPackages (red team r24c F1, F1b): the
// person's `npx -y PKG@VER` server does not run a node_modules/PKG or the
// script-shell of a .npmrc the model wrote into the workspace: servers run
// in Options.RunDir. A relative path argument still means the project.
func TestServerDoesNotRunTheWorkspacesPackages(t *testing.T) {
	if _, err := exec.LookPath("npx"); err != nil {
		t.Skip("npx not installed")
	}
	ws, out := t.TempDir(), t.TempDir()
	marker := filepath.Join(out, "PROOF_ran")
	pkg := filepath.Join(ws, "node_modules", "pincer-rt-planted")
	payload := "#!/usr/bin/env node\nrequire('fs').writeFileSync(" + `"` + marker + `"` + ", 'ran');\n"
	for name, body := range map[string]string{
		"package.json": `{"name":"pincer-rt-planted","version":"1.0.0","bin":{"pincer-rt-planted":"index.js"}}`,
		"index.js":     payload,
	} {
		if err := os.MkdirAll(pkg, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pkg, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(ws, "node_modules", ".bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../pincer-rt-planted/index.js", filepath.Join(bin, "pincer-rt-planted")); err != nil {
		t.Fatal(err)
	}
	shell := filepath.Join(ws, "shell.sh")
	if err := os.WriteFile(shell, []byte("#!/bin/sh\ntouch "+marker+".shell\nexec /bin/sh \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".npmrc"), []byte("script-shell="+shell+"\noffline=true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The run dir apart, and below the planted directory (PINCER_HOME under
	// a writable tree: npm looks for node_modules upwards, red team r24d F3).
	for _, runDir := range []string{t.TempDir(), filepath.Join(ws, "home", "data", "mcp-run")} {
		m := mcp.NewManager(mcp.Options{Registry: tools.NewRegistry(), LogDir: t.TempDir(), Dir: ws, RunDir: runDir,
			CacheDir: t.TempDir(), ConnectTimeout: 20 * time.Second})
		m.Start(context.Background(), []mcp.ServerConfig{{Name: "planted", Transport: mcp.TransportStdio, Command: "npx",
			Args: []string{"-y", "pincer-rt-planted@1.0.0"}, Scope: mcp.ScopeUser, Approved: true}})
		m.WaitReady(context.Background(), 30*time.Second)
		m.Close()
		for _, p := range []string{marker, marker + ".shell"} {
			if _, err := os.Stat(p); err == nil {
				t.Errorf("ESCAPE: with the run dir %s the server ran the workspace's planted package (%s)", runDir, p)
				_ = os.Remove(p)
			}
		}
	}
}

// TestServerArgsAndProjectDir: a server run in RunDir gets the project as
// PINCER_PROJECT_DIR and CLAUDE_PROJECT_DIR.
func TestServerArgsAndProjectDir(t *testing.T) {
	ws := t.TempDir()
	cfg := mcptest.Everything(t, "everything")
	reg := tools.NewRegistry()
	startManager(t, mcp.Options{Registry: reg, Dir: ws, RunDir: t.TempDir()}, cfg)
	got := call(t, reg, nil, "mcp__everything__get-env", `{}`).Output
	if !strings.Contains(got, `"PINCER_PROJECT_DIR": "`+ws+`"`) && !strings.Contains(got, `"PINCER_PROJECT_DIR":"`+ws+`"`) {
		t.Errorf("the server's environment lacks PINCER_PROJECT_DIR=%s: %.800s", ws, got)
	}
}
