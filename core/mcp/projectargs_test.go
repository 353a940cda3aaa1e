package mcp

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestProjectArgs: a server runs outside the workspace, so its relative path
// arguments and command are made absolute against it (red team r24d N1:
// "tools/srv.sh", "--dir=./x" and "./tools/srv.sh" no longer started).
func TestProjectArgs(t *testing.T) {
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "tools", "srv.js"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	in := []string{".", "./x", "../y", "tools/srv.js", "--dir=./x", "--root=.", "-y", "@scope/pkg@1.0", "pkg@1.0", "/abs/p", "not/there", "--flag"}
	want := []string{ws, filepath.Join(ws, "x"), filepath.Join(filepath.Dir(ws), "y"), filepath.Join(ws, "tools", "srv.js"),
		"--dir=" + filepath.Join(ws, "x"), "--root=" + ws, "-y", "@scope/pkg@1.0", "pkg@1.0", "/abs/p", "not/there", "--flag"}
	if got := projectArgs(in, ws); !slices.Equal(got, want) {
		t.Errorf("projectArgs:\n got %q\nwant %q", got, want)
	}
	for cmd, want := range map[string]string{"npx": "npx", "./tools/srv.sh": filepath.Join(ws, "tools", "srv.sh"), "bin/srv": filepath.Join(ws, "bin", "srv"), "/usr/bin/node": "/usr/bin/node"} {
		if got := projectCommand(cmd, ws); got != want {
			t.Errorf("projectCommand(%q) = %q, want %q", cmd, got, want)
		}
	}
	run := filepath.Join(t.TempDir(), "run")
	if err := prepareRunDir(run); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(run, "package.json")); err != nil {
		t.Errorf("no package.json stops npm's search for a project above the run dir: %v", err)
	}
}
