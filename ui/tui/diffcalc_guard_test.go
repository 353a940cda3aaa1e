package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWouldBeDiffStaysInside: the would-be diff reads files as the tools do,
// through the workspace's os.Root: a path outside the workspace, or through
// a symlink (file or directory, absolute or relative) leading out, is never
// read — the outside marker never appears in a preview — and a link that
// stays inside previews as usual.
func TestWouldBeDiffStaysInside(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	outside, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte("MARKER-SECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "in.txt"), []byte("inside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{
		"filelink": secret, "dirlink": outside, "rellink": "../" + filepath.Base(outside) + "/secret.txt", "inlink": "in.txt",
	} {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{secret, "filelink", "dirlink/secret.txt", "rellink", "../" + filepath.Base(outside) + "/secret.txt"} {
		for _, tool := range []string{"Edit", "Write"} {
			input := `{"file_path":"` + p + `","old_string":"MARKER","new_string":"x","content":"x"}`
			if tool == "Write" {
				input = `{"file_path":"` + p + `","content":"x"}`
			}
			got, err := wouldBeDiff(root, tool, input)
			if strings.Contains(got, "MARKER") || err == nil || !strings.Contains(err.Error(), "outside the workspace") {
				t.Errorf("%s %s: diff %q, err %v; want an outside-the-workspace error", tool, p, got, err)
			}
		}
	}
	got, err := wouldBeDiff(root, "Edit", `{"file_path":"inlink","old_string":"inside","new_string":"edited"}`)
	if err != nil || !strings.Contains(got, "+edited") {
		t.Errorf("Edit through an inside link: %q, %v", got, err)
	}
}
