package lsp

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReadInsideFollowsNoLinkOut: a changed file is read through the
// workspace root: a plain file and a link inside are read, a link leading
// outside and a path outside are not.
func TestReadInsideFollowsNoLinkOut(t *testing.T) {
	root, out := t.TempDir(), t.TempDir()
	secret := filepath.Join(out, "m.txt")
	for p, c := range map[string]string{filepath.Join(root, "a.go"): "package a\n", secret: "OUTSIDE\n"} {
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(secret, filepath.Join(root, "z.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.go", filepath.Join(root, "b.go")); err != nil {
		t.Fatal(err)
	}
	for name, ok := range map[string]bool{"a.go": true, "b.go": true, "z.go": false} {
		b, err := readInside(root, filepath.Join(root, name))
		if ok != (err == nil) || !ok && len(b) > 0 {
			t.Errorf("%s: %q, %v", name, b, err)
		}
	}
	if _, err := readInside(root, secret); err == nil {
		t.Error("a path outside the root was read")
	}
}
