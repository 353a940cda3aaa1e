package mcp

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestProjectArgs: a server runs outside the workspace, so its relative path
// arguments ("./x", "--dir=./x") and command are made absolute against it
// (red team r24d N1), and nothing else is (r24e F2).
func TestProjectArgs(t *testing.T) {
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "tools", "srv.js"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// A package spec with a slash stays one even when the workspace holds a
	// directory of that name (red team r24e F2: npx installed it).
	for _, d := range []string{"github:user/repo", "user/repo"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	in := []string{".", "./x", "../y", "./tools/srv.js", "--dir=./x", "--root=.", "-y", "@scope/pkg@1.0", "pkg@1.0", "/abs/p",
		"tools/srv.js", "github:user/repo", "user/repo", "--from=git+https://h/u/r.git", "--flag"}
	want := []string{ws, filepath.Join(ws, "x"), filepath.Join(filepath.Dir(ws), "y"), filepath.Join(ws, "tools", "srv.js"),
		"--dir=" + filepath.Join(ws, "x"), "--root=" + ws, "-y", "@scope/pkg@1.0", "pkg@1.0", "/abs/p",
		"tools/srv.js", "github:user/repo", "user/repo", "--from=git+https://h/u/r.git", "--flag"}
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
