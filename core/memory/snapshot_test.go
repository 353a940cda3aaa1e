package memory

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSnapshotIncludesIndexedFiles: a snapshot carries USER.md, MEMORY.md
// and the text of the files they link to — each cut at 4 KB, all at 25 KB,
// the cuts said — and never a file through a symlink, a link with "..", an
// absolute link or a file no index line names.
func TestSnapshotIncludesIndexedFiles(t *testing.T) {
	f := newFixture(t)
	p := f.m.Paths()
	secret := filepath.Join(t.TempDir(), "secret")
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(secret, "SECRET-TEXT\n")
	write(p.UserIndex, "- [me](memory/me.md) — about me\n- [up](../up.md) — out\n- [abs](/etc/passwd.md) — abs\n")
	write(filepath.Join(p.UserDir, "me.md"), "I-AM-THE-USER\n")
	write(filepath.Join(filepath.Dir(p.UserIndex), "..", "up.md"), "UP-TEXT\n")
	var index strings.Builder
	for i := range 9 {
		fmt.Fprintf(&index, "- [m%d](m%d.md) — note %d\n", i, i, i)
		write(filepath.Join(p.ProjectDir, fmt.Sprintf("m%d.md", i)), fmt.Sprintf("M%d-START\n", i)+strings.Repeat("x", 5000))
	}
	index.WriteString("- [link](link.md) — a symlink\n")
	write(p.ProjectIndex(), index.String())
	write(filepath.Join(p.ProjectDir, "unlisted.md"), "UNLISTED-TEXT\n")
	if err := os.Symlink(secret, filepath.Join(p.ProjectDir, "link.md")); err != nil {
		t.Fatal(err)
	}

	s := TakeSnapshot(p)
	for _, w := range []string{"I-AM-THE-USER", "### memory/me.md", "M0-START", "M5-START", "(cut at 4 KB)", "(the memory files are cut at 25 KB in all"} {
		if !strings.Contains(s.Text, w) {
			t.Errorf("snapshot lacks %q", w)
		}
	}
	for _, w := range []string{"SECRET-TEXT", "UP-TEXT", "UNLISTED-TEXT", "M8-START", "read one with Read"} {
		if strings.Contains(s.Text, w) {
			t.Errorf("snapshot holds %q", w)
		}
	}
	total := 0
	for _, sf := range s.Files {
		if len(sf.Text) > MaxSnapshotFileBytes {
			t.Errorf("%s: %d bytes", sf.Link, len(sf.Text))
		}
		total += len(sf.Text)
	}
	if total > MaxSnapshotFilesBytes {
		t.Errorf("files total %d bytes", total)
	}
}

// TestSnapshotEmpty: no index, no segment.
func TestSnapshotEmpty(t *testing.T) {
	f := newFixture(t)
	if s := TakeSnapshot(f.m.Paths()); s.Text != "" || len(s.Files) != 0 {
		t.Errorf("%+v", s)
	}
}
