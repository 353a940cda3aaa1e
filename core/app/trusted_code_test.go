package app

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"pincer/core/hook"
	"pincer/core/mcp"
)

// TestTrustedCodeFound (brief r19 D1, D2): the session's trusted code is the
// directory core.hooksPath names, the workspace files the literal words of the
// person's hooks name (a script argument, a program path, one under
// $CLAUDE_PROJECT_DIR, one after `cd`), and those of approved stdio MCP
// servers; an unapproved project server's, a missing file, a directory
// argument and files outside the workspace are not; the sandbox gets each
// relative to the root.
func TestTrustedCodeFound(t *testing.T) {
	ws := t.TempDir()
	for _, f := range []string{"scripts/check.sh", "scripts/fmt.py", "scripts/env.sh", "tools/lint.sh", "mcp/server.js", "mcp/evil.js", "src/a.go"} {
		p := filepath.Join(ws, f)
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("x\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	git := exec.Command("git", "init", "-q")
	git.Dir = ws
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	git = exec.Command("git", "config", "core.hooksPath", "tools/hooks")
	git.Dir = ws
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git config: %v %s", err, out)
	}
	runner, errs := hook.NewRunner(map[hook.Event][]hook.Def{
		hook.PreToolUse: {{Command: "sh scripts/check.sh --strict"}, {Command: "./scripts/fmt.py && gofmt -l src"},
			{Command: `"$CLAUDE_PROJECT_DIR"/scripts/env.sh`}, {Command: "cd tools && ./lint.sh"}, {Command: "sh scripts/missing.sh /etc/passwd"}},
	}, ws)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	servers := []mcp.ServerConfig{
		{Name: "ok", Transport: mcp.TransportStdio, Command: "node", Args: []string{"./mcp/server.js"}, Approved: true, Scope: mcp.ScopeProject},
		{Name: "no", Transport: mcp.TransportStdio, Command: "node", Args: []string{"mcp/evil.js"}, Scope: mcp.ScopeProject},
	}
	tcs, _, warning := trustedCode(context.Background(), []string{ws}, runner, servers)
	if warning != "" {
		t.Errorf("warning %q", warning)
	}
	var got []string
	for _, tc := range tcs {
		rel, _ := filepath.Rel(ws, tc.Path)
		got = append(got, rel)
	}
	for _, want := range []string{"tools/hooks", "scripts/check.sh", "scripts/fmt.py", "scripts/env.sh", "tools/lint.sh", "mcp/server.js"} {
		if !slices.Contains(got, want) {
			t.Errorf("trusted code %v has no %s", got, want)
		}
	}
	for _, not := range []string{"mcp/evil.js", "src", "scripts/missing.sh", "src/a.go"} {
		if slices.Contains(got, not) {
			t.Errorf("trusted code %v has %s", got, not)
		}
	}
	rel := trustedCodeRel(tcs, []string{ws})
	if !slices.Contains(rel, "tools/hooks/") || !slices.Contains(rel, "mcp/server.js") {
		t.Errorf("sandbox paths %v, want tools/hooks/ and mcp/server.js", rel)
	}
}

// TestPrepareProtectsTrustedCode: Prepare puts the trusted code of the
// person's hook (config.toml) and of core.hooksPath into the Setup (the
// agents' permission input) and the sandbox policy's read-only paths; a
// project file's hook, not trusted, adds nothing.
func TestPrepareProtectsTrustedCode(t *testing.T) {
	ws := t.TempDir()
	home := t.TempDir()
	t.Setenv("PINCER_HOME", home)
	t.Setenv("HOME", t.TempDir())
	_ = os.WriteFile(filepath.Join(home, "config.toml"), []byte("[[hooks.PostToolUse]]\ncommand = \"sh scripts/check.sh\"\n"), 0o600)
	_ = os.MkdirAll(filepath.Join(ws, ".pincer"), 0o755)
	_ = os.WriteFile(filepath.Join(ws, ".pincer", "config.toml"), []byte("[[hooks.PostToolUse]]\ncommand = \"sh scripts/project.sh\"\n"), 0o600)
	_ = os.MkdirAll(filepath.Join(ws, "scripts"), 0o755)
	for _, f := range []string{"check.sh", "project.sh"} {
		_ = os.WriteFile(filepath.Join(ws, "scripts", f), []byte("true\n"), 0o755)
	}
	for _, args := range [][]string{{"init", "-q"}, {"config", "core.hooksPath", "tools/hooks"}} {
		git := exec.Command("git", args...)
		git.Dir = ws
		if out, err := git.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	t.Chdir(ws)
	s, err := Prepare(Options{FailClosed: true, ModelOptional: true})
	if err != nil {
		t.Fatal(err)
	}
	if s.Sandbox == nil {
		t.Skip("no sandbox policy here")
	}
	for _, want := range []string{"tools/hooks/", "scripts/check.sh"} {
		if !slices.Contains(s.Sandbox.TrustedCode, want) {
			t.Errorf("sandbox TrustedCode %v has no %s", s.Sandbox.TrustedCode, want)
		}
	}
	if slices.Contains(s.Sandbox.TrustedCode, "scripts/project.sh") {
		t.Errorf("an untrusted project hook's script is trusted code: %v", s.Sandbox.TrustedCode)
	}
	if len(s.TrustedCode) != len(s.Sandbox.TrustedCode) {
		t.Errorf("Setup.TrustedCode %v, sandbox %v", s.TrustedCode, s.Sandbox.TrustedCode)
	}
}
