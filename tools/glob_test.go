package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// globFixture builds a small tree with known modification times (higher offset =
// newer) and returns its env and root.
func globFixture(t *testing.T) (*Env, string) {
	t.Helper()
	env, root := newTestEnv(t)
	files := []struct {
		rel string
		age int
	}{
		{"main.go", 5},
		{"util.go", 3},
		{"README.md", 1},
		{"cmd/app/main.go", 9},
		{"pkg/a/a.go", 7},
		{"pkg/a/a_test.go", 8},
		{"web/x.ts", 2},
		{"web/y.tsx", 4},
		{".hidden/h.go", 6},
		{".git/objects/o.go", 10},
	}
	for _, f := range files {
		writeTestFile(t, root, f.rel, "x\n")
		setMtime(t, root, f.rel, f.age)
	}
	if err := os.MkdirAll(filepath.Join(root, "empty.go"), 0o755); err != nil { // a directory, not a file
		t.Fatal(err)
	}
	outside := t.TempDir()
	writeTestFile(t, outside, "out.go", "x\n")
	if err := os.Symlink(outside, filepath.Join(root, "linkdir")); err != nil {
		t.Fatal(err)
	}
	return env, root
}

func TestGlob(t *testing.T) {
	env, root := globFixture(t)
	tests := []struct {
		name    string
		in      GlobInput
		want    string
		wantErr string
	}{
		{name: "recursive, newest first", in: GlobInput{Pattern: "**/*.go"},
			want: "cmd/app/main.go\npkg/a/a_test.go\npkg/a/a.go\n.hidden/h.go\nmain.go\nutil.go"},
		{name: "top level only", in: GlobInput{Pattern: "*.go"}, want: "main.go\nutil.go"},
		{name: "alternatives", in: GlobInput{Pattern: "web/*.{ts,tsx}"}, want: "web/y.tsx\nweb/x.ts"},
		{name: "middle wildcard", in: GlobInput{Pattern: "cmd/*/main.go"}, want: "cmd/app/main.go"},
		{name: "path narrows and output stays root-relative", in: GlobInput{Pattern: "**/*_test.go", Path: "pkg"}, want: "pkg/a/a_test.go"},
		{name: "absolute path", in: GlobInput{Pattern: "*.go", Path: filepath.Join(root, "pkg", "a")}, want: "pkg/a/a_test.go\npkg/a/a.go"},
		{name: "absolute pattern", in: GlobInput{Pattern: filepath.Join(root, "pkg", "**", "a.go")}, want: "pkg/a/a.go"},
		{name: "no match", in: GlobInput{Pattern: "**/*.rs"}, want: "No files found"},
		{name: "invalid pattern", in: GlobInput{Pattern: "[abc"}, wantErr: "invalid glob pattern"},
		{name: "path outside", in: GlobInput{Pattern: "*", Path: "/etc"}, wantErr: "is outside the workspace"},
		{name: "path through escaping link", in: GlobInput{Pattern: "*", Path: "linkdir"}, wantErr: "outside the workspace"},
		{name: "path is a file", in: GlobInput{Pattern: "*", Path: "main.go"}, wantErr: "is not a directory"},
		{name: "missing path", in: GlobInput{Pattern: "*", Path: "nope"}, wantErr: "does not exist"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := runTool(t, Glob{}, env, tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Output != tt.want {
				t.Fatalf("output =\n%s\nwant\n%s", res.Output, tt.want)
			}
		})
	}
}

func TestGlobCap(t *testing.T) {
	env, root := newTestEnv(t)
	for i := range 150 {
		rel := fmt.Sprintf("f%03d.txt", i)
		writeTestFile(t, root, rel, "")
		setMtime(t, root, rel, i)
	}
	res, err := runTool(t, Glob{}, env, GlobInput{Pattern: "*.txt"})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(res.Output, "\n")
	if len(lines) != 101 {
		t.Fatalf("%d lines, want 100 paths and a note", len(lines))
	}
	if lines[0] != "f149.txt" || lines[99] != "f050.txt" {
		t.Errorf("first %q, last %q: want newest first", lines[0], lines[99])
	}
	if want := "(Results are truncated: showing first 100 of 150. Use a more specific path or pattern.)"; lines[100] != want {
		t.Errorf("note = %q", lines[100])
	}
}
