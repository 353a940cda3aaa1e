package web

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWriteToken: the token file is 0600 in a 0700 directory, holds the
// token, and its remove deletes it only while it holds this token (a
// second server's file stays when the first exits).
func TestWriteToken(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	first, _ := NewToken()
	second, _ := NewToken()
	if len(first) != 64 || first == second {
		t.Fatalf("tokens %q %q", first, second)
	}
	path, removeFirst, err := WriteToken(dir, first)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	di, derr := os.Stat(dir)
	if err != nil || derr != nil || fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 || filepath.Base(path) != TokenFile {
		t.Fatalf("file %v %v, dir %v %v", fi, err, di, derr)
	}
	_, removeSecond, err := WriteToken(dir, second)
	if err != nil {
		t.Fatal(err)
	}
	if err := removeFirst(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != second+"\n" {
		t.Fatalf("the first server's exit removed the second's token: %q %v", b, err)
	}
	if err := removeSecond(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("token file left: %v", err)
	}
}
