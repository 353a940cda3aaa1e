package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSymlinkGuard: a symlink inside the workspace that points outside it can
// not be written through by Write or Edit, whatever kind of link it is; the
// target stays as it was. A link that stays inside works.
func TestSymlinkGuard(t *testing.T) {
	env, root := newTestEnv(t)
	outside, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte("original\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, root, "inside.txt", "inside\n")
	for name, target := range map[string]string{
		"file-link":     secret,                            // a file outside
		"dir-link":      outside,                           // a directory outside
		"dangling-link": filepath.Join(outside, "new.txt"), // a file a write would create outside
		"relative-link": "../" + filepath.Base(outside),    // relative, climbing out (sibling temp dirs)
		"chain-link":    "file-link",                       // a link to a link that leaves
		"inside-link":   "inside.txt",                      // stays inside: allowed
	} {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	refused := []struct {
		name string
		tool Tool
		in   any
	}{
		{"Write through a file link", Typed(Write{}), WriteInput{FilePath: "file-link", Content: "pwned\n"}},
		{"Write into a dir link", Typed(Write{}), WriteInput{FilePath: "dir-link/secret.txt", Content: "pwned\n"}},
		{"Write a new file under a dir link", Typed(Write{}), WriteInput{FilePath: "dir-link/new.txt", Content: "pwned\n"}},
		{"Write through a dangling link", Typed(Write{}), WriteInput{FilePath: "dangling-link", Content: "pwned\n"}},
		{"Write through a chain of links", Typed(Write{}), WriteInput{FilePath: "chain-link", Content: "pwned\n"}},
		{"Write with an absolute path through a link", Typed(Write{}), WriteInput{FilePath: filepath.Join(root, "dir-link", "secret.txt"), Content: "pwned\n"}},
		{"Edit through a file link", Typed(Edit{}), EditInput{FilePath: "file-link", OldString: "original", NewString: "pwned"}},
		{"Edit into a dir link", Typed(Edit{}), EditInput{FilePath: "dir-link/secret.txt", OldString: "original", NewString: "pwned"}},
		{"Edit creating through a dangling link", Typed(Edit{}), EditInput{FilePath: "dangling-link", OldString: "", NewString: "pwned"}},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			_, err := callTool(t, tt.tool, env, tt.in)
			if err == nil || !strings.Contains(err.Error(), "outside the workspace") {
				t.Fatalf("error = %v, want the workspace guard to refuse", err)
			}
		})
	}
	if b, _ := os.ReadFile(secret); string(b) != "original\n" {
		t.Fatalf("the file outside changed: %q", b)
	}
	if _, err := os.Lstat(filepath.Join(outside, "new.txt")); err == nil {
		t.Fatal("a file was created outside the workspace")
	}
	// The relative link resolves to a sibling of the workspace: refused too.
	if _, err := runTool(t, Write{}, env, WriteInput{FilePath: "relative-link/x.txt", Content: "x"}); err == nil {
		t.Fatal("Write through a relative link out of the workspace succeeded")
	}

	readFirst(t, env, "inside-link")
	if _, err := runTool(t, Edit{}, env, EditInput{FilePath: "inside-link", OldString: "inside", NewString: "edited"}); err != nil {
		t.Fatalf("Edit through a link that stays inside: %v", err)
	}
	if got := readTestFile(t, root, "inside.txt"); got != "edited\n" {
		t.Fatalf("inside.txt = %q", got)
	}
}
