package tools

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// previewCase is one call previewed and then run. files are written before
// the call; read are Read first; changed are rewritten after the Read (a
// change on disk the session did not see).
type previewCase struct {
	name    string
	files   map[string]string
	read    []string
	changed map[string]string
	tool    string // "Edit" or "Write"
	input   map[string]any
	wantErr string // substring of the error both Preview and Run return; "" for success
	want    string // substring of the diff, for a success
}

// previewCases are the cases the issue names — CRLF, BOM, the fallback match,
// replace_all, a new and an overwritten file — and the refusals.
var previewCases = []previewCase{
	{name: "crlf file, lf strings", files: map[string]string{"f.txt": "a\r\nb\r\nc\r\n"}, read: []string{"f.txt"}, tool: "Edit",
		input: map[string]any{"file_path": "f.txt", "old_string": "a\nb", "new_string": "x\ny"}, want: "-a\r\n-b\r\n+x\r\n+y\r\n"},
	{name: "lf file, crlf strings", files: map[string]string{"f.txt": "a\nb\nc\n"}, read: []string{"f.txt"}, tool: "Edit",
		input: map[string]any{"file_path": "f.txt", "old_string": "a\r\nb", "new_string": "x\r\ny"}, want: "-a\n-b\n+x\n+y\n"},
	{name: "mostly lf file with one crlf line", files: map[string]string{"f.txt": "h\r\nc\nd\ne\nf\n"}, read: []string{"f.txt"}, tool: "Edit",
		input: map[string]any{"file_path": "f.txt", "old_string": "c\nd", "new_string": "C\nD"}, want: "+C\n+D\n"},
	{name: "fallback: lf region of a crlf file matched as given", files: map[string]string{"f.txt": "a\r\nb\r\nc\nd\n\r\ne\r\n"}, read: []string{"f.txt"}, tool: "Edit",
		input: map[string]any{"file_path": "f.txt", "old_string": "c\nd", "new_string": "C\nD"}, want: "+C\n+D\n"},
	{name: "bom kept", files: map[string]string{"f.txt": "\uFEFFhello\nworld\n"}, read: []string{"f.txt"}, tool: "Edit",
		input: map[string]any{"file_path": "f.txt", "old_string": "hello", "new_string": "bye"}, want: "+\uFEFFbye\n"},
	{name: "bom in old_string", files: map[string]string{"f.txt": "\uFEFFhello\n"}, read: []string{"f.txt"}, tool: "Edit",
		input: map[string]any{"file_path": "f.txt", "old_string": "\uFEFFhello", "new_string": "bye"}, want: "+\uFEFFbye\n"},
	{name: "bom-only file filled by an empty old_string", files: map[string]string{"f.txt": "\uFEFF"}, read: []string{"f.txt"}, tool: "Edit",
		input: map[string]any{"file_path": "f.txt", "old_string": "", "new_string": "first\n"}, want: "+\uFEFFfirst\n"},
	{name: "bom and crlf", files: map[string]string{"f.txt": "\uFEFFa\r\nb\r\n"}, read: []string{"f.txt"}, tool: "Edit",
		input: map[string]any{"file_path": "f.txt", "old_string": "a\nb", "new_string": "c"}, want: "+\uFEFFc\r\n"},
	{name: "replace_all", files: map[string]string{"f.txt": "x\ny\nx\n"}, read: []string{"f.txt"}, tool: "Edit",
		input: map[string]any{"file_path": "f.txt", "old_string": "x", "new_string": "z", "replace_all": true}, want: "-x\n+z\n y\n-x\n+z\n"},
	{name: "edit creates a new file", tool: "Edit",
		input: map[string]any{"file_path": "sub/new.txt", "old_string": "", "new_string": "n\n"}, want: "--- /dev/null\n+++ b/sub/new.txt\n"},
	{name: "changed on disk, still one match", files: map[string]string{"f.txt": "a\nb\n"}, read: []string{"f.txt"}, changed: map[string]string{"f.txt": "a\nb\nc\n"}, tool: "Edit",
		input: map[string]any{"file_path": "f.txt", "old_string": "b", "new_string": "B"}, want: "+B\n"},
	{name: "new-file write", tool: "Write",
		input: map[string]any{"file_path": "a/b/new.txt", "content": "x\ny\n"}, want: "--- /dev/null\n+++ b/a/b/new.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n"},
	{name: "overwrite write", files: map[string]string{"f.txt": "old\r\nkeep\r\n"}, read: []string{"f.txt"}, tool: "Write",
		input: map[string]any{"file_path": "f.txt", "content": "new\nkeep\n"}, want: "--- a/f.txt\n+++ b/f.txt\n"},
	{name: "write of identical content", files: map[string]string{"f.txt": "same\n"}, read: []string{"f.txt"}, tool: "Write",
		input: map[string]any{"file_path": "f.txt", "content": "same\n"}},

	{name: "old == new", files: map[string]string{"f.txt": "a\n"}, read: []string{"f.txt"}, tool: "Edit",
		input: map[string]any{"file_path": "f.txt", "old_string": "a", "new_string": "a"}, wantErr: "No changes to make"},
	{name: "not found", files: map[string]string{"f.txt": "a\n"}, read: []string{"f.txt"}, tool: "Edit",
		input: map[string]any{"file_path": "f.txt", "old_string": "zzz", "new_string": "a"}, wantErr: "String to replace not found"},
	{name: "ambiguous", files: map[string]string{"f.txt": "x x\n"}, read: []string{"f.txt"}, tool: "Edit",
		input: map[string]any{"file_path": "f.txt", "old_string": "x", "new_string": "y"}, wantErr: "Found 2 matches"},
	{name: "edit without a read", files: map[string]string{"f.txt": "a\n"}, tool: "Edit",
		input: map[string]any{"file_path": "f.txt", "old_string": "a", "new_string": "b"}, wantErr: "File has not been read yet"},
	{name: "write over an unread file", files: map[string]string{"f.txt": "a\n"}, tool: "Write",
		input: map[string]any{"file_path": "f.txt", "content": "b\n"}, wantErr: "File has not been read yet"},
	{name: "write over a file changed since read", files: map[string]string{"f.txt": "a\n"}, read: []string{"f.txt"}, changed: map[string]string{"f.txt": "a2\n"}, tool: "Write",
		input: map[string]any{"file_path": "f.txt", "content": "b\n"}, wantErr: "modified since it was read"},
	{name: "edit of a missing file", tool: "Edit",
		input: map[string]any{"file_path": "nope.txt", "old_string": "a", "new_string": "b"}, wantErr: "File does not exist"},
	{name: "empty old_string on a file with content", files: map[string]string{"f.txt": "a\n"}, read: []string{"f.txt"}, tool: "Edit",
		input: map[string]any{"file_path": "f.txt", "old_string": "", "new_string": "b"}, wantErr: "already has content"},
	{name: "edit outside the workspace", tool: "Edit",
		input: map[string]any{"file_path": "../outside.txt", "old_string": "", "new_string": "PROOF"}, wantErr: "outside the workspace"},
	{name: "write outside the workspace", tool: "Write",
		input: map[string]any{"file_path": "/etc/pincer-preview-PROOF", "content": "PROOF"}, wantErr: "outside the workspace"},
	{name: "write through a symlink out of the workspace", files: map[string]string{"link->": "../"}, tool: "Write",
		input: map[string]any{"file_path": "link/PROOF", "content": "PROOF"}, wantErr: "outside the workspace"},
	{name: "edit of a directory", files: map[string]string{"d/x": "x"}, tool: "Edit",
		input: map[string]any{"file_path": "d", "old_string": "a", "new_string": "b"}, wantErr: "is a directory"},
}

// TestPreviewIsRunDiff is issue 11's must-show case: for each call, Preview
// writes nothing and returns exactly the diff Run then produces (Result.Diff,
// the tool.completed diff), or exactly the error Run then returns.
func TestPreviewIsRunDiff(t *testing.T) {
	for _, tc := range previewCases {
		t.Run(tc.name, func(t *testing.T) {
			env, root := newTestEnv(t)
			for rel, content := range tc.files {
				if target, ok := strings.CutSuffix(rel, "->"); ok {
					if err := os.Symlink(content, filepath.Join(root, target)); err != nil {
						t.Fatal(err)
					}
					continue
				}
				writeTestFile(t, root, rel, content)
			}
			for _, rel := range tc.read {
				readFirst(t, env, rel)
			}
			for rel, content := range tc.changed {
				writeTestFile(t, root, rel, content)
			}
			tool, _ := Default().Get(tc.tool)
			pv, ok := tool.(Previewer)
			if !ok {
				t.Fatalf("%s has no Preview", tc.tool)
			}
			input := mustJSON(t, tc.input)
			before := snapshot(t, filepath.Dir(root))

			diff, perr := pv.Preview(env, input)
			if after := snapshot(t, filepath.Dir(root)); !equalSnapshots(before, after) {
				t.Fatalf("Preview changed the file system:\nbefore %v\nafter  %v", before, after)
			}
			res, rerr := tool.Run(context.Background(), env, input)

			if tc.wantErr != "" {
				if perr == nil || !strings.Contains(perr.Error(), tc.wantErr) {
					t.Fatalf("Preview error = %v, want %q", perr, tc.wantErr)
				}
				if rerr == nil || rerr.Error() != perr.Error() {
					t.Fatalf("Run error = %v, Preview error = %v: they must be the same", rerr, perr)
				}
				return
			}
			if perr != nil || rerr != nil {
				t.Fatalf("Preview error = %v, Run error = %v", perr, rerr)
			}
			if diff != res.Diff {
				t.Fatalf("Preview diff differs from Run's diff:\npreview %q\nrun     %q", diff, res.Diff)
			}
			if !strings.Contains(diff, tc.want) {
				t.Fatalf("diff = %q, want it to contain %q", diff, tc.want)
			}
		})
	}
}

// snapshot maps every path under dir (relative) to its content, "dir" for a
// directory and "-> target" for a symlink.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			out[rel] = "-> " + target
		case d.IsDir():
			out[rel] = "dir"
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func equalSnapshots(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
