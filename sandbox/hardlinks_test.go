package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// TestHardLinkToHidden: a real hard link to a hidden file is LinkHidden, by
// device and inode; a multiply-linked file of the workspace's own, or a file
// with one link, is LinkNone; past the walk's cap, a multiply-linked file on
// the device of the unfinished hidden directory is LinkUnknown.
func TestHardLinkToHidden(t *testing.T) {
	hidden := filepath.Join(t.TempDir(), ".ssh")
	ws := t.TempDir()
	for _, n := range []string{"a", "b", "id_rsa"} {
		mustWrite(t, filepath.Join(hidden, n), "SECRET-"+n)
	}
	mustWrite(t, filepath.Join(ws, "own"), "mine")
	mustWrite(t, filepath.Join(ws, "single"), "one link")
	for old, new := range map[string]string{filepath.Join(hidden, "id_rsa"): "key", filepath.Join(ws, "own"): "own2"} {
		if err := os.Link(old, filepath.Join(ws, new)); err != nil {
			t.Fatal(err)
		}
	}
	stat := func(n string) os.FileInfo {
		fi, err := os.Stat(filepath.Join(ws, n))
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	for _, c := range []struct {
		name  string
		limit int
		want  LinkVerdict
	}{
		{"key", 100, LinkHidden},
		{"own", 100, LinkNone},
		{"own2", 100, LinkNone},
		{"single", 100, LinkNone},
		{"key", 2, LinkUnknown}, // the walk stops before id_rsa
		{"own", 2, LinkUnknown}, // same device as the unfinished directory
		{"single", 2, LinkNone}, // one link: never a hidden file's other name
	} {
		got, where := walkHidden([]string{hidden, filepath.Join(hidden, "missing")}, c.limit).verdict(stat(c.name))
		if got != c.want {
			t.Errorf("%s (cap %d) = %v (%s), want %v", c.name, c.limit, got, where, c.want)
		}
	}
	if v, where := hardLinkTo(stat("key"), []string{hidden}); v != LinkHidden || where != filepath.Join(hidden, "id_rsa") {
		t.Errorf("hardLinkTo = %v %q", v, where)
	}
}

func mustWrite(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
