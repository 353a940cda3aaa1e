package smallfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestWalkDirs: the walk opens directories only, never through a symlink
// (one pointing inside the tree too), says which component failed and why,
// and makes missing directories only when asked.
func TestWalkDirs(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"a/b/c", "outside"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	_ = os.WriteFile(filepath.Join(root, "a/file"), nil, 0o644)
	_ = os.Symlink(filepath.Join(root, "outside"), filepath.Join(root, "a/out"))
	_ = os.Symlink("b", filepath.Join(root, "a/in"))
	top, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(top)
	for _, tc := range []struct {
		name   string
		names  []string
		mkdir  uint32
		failed int
		want   error
	}{
		{"plain", []string{"a", "b", "c"}, 0, -1, nil},
		{"none", nil, 0, -1, nil},
		{"link out", []string{"a", "out"}, 0, 1, ErrLinkOnPath},
		{"link inside", []string{"a", "in", "c"}, 0o755, 1, ErrLinkOnPath},
		{"a file", []string{"a", "file", "x"}, 0o755, 1, unix.ENOTDIR},
		{"missing", []string{"a", "new"}, 0, 1, unix.ENOENT},
		{"made", []string{"a", "new", "deeper"}, 0o700, -1, nil},
		{"dot dot", []string{"a", ".."}, 0, 1, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fd, failed, err := WalkDirs(top, tc.names, tc.mkdir)
			if fd >= 0 {
				unix.Close(fd)
			}
			if failed != tc.failed || (tc.want != nil && !errors.Is(err, tc.want)) || (tc.failed < 0) != (err == nil) {
				t.Fatalf("WalkDirs(%q) = failed %d, %v; want failed %d, %v", tc.names, failed, err, tc.failed, tc.want)
			}
		})
	}
	if st, err := os.Lstat(filepath.Join(root, "a/new/deeper")); err != nil || !st.IsDir() || st.Mode().Perm() != 0o700 {
		t.Errorf("the made directory: %v %v", st, err)
	}
	if _, err := os.Stat(filepath.Join(root, "outside/c")); err == nil {
		t.Error("a directory was made through the link")
	}
}
