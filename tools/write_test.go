package tools

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	tests := []struct {
		name      string
		setup     func(t *testing.T, env *Env, root string)
		in        WriteInput
		wantErr   string
		wantFile  string // expected content after the call (when no error)
		wantOut   string // substring of Output
		wantDiff  string // exact diff, when set
		unchanged string // expected content when the call must fail
	}{
		{
			name:     "new file with parent dirs",
			in:       WriteInput{FilePath: "a/b/new.txt", Content: "x\ny\n"},
			wantFile: "x\ny\n",
			wantOut:  "Created a/b/new.txt (2 lines).",
			wantDiff: "--- /dev/null\n+++ b/a/b/new.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n",
		},
		{
			name:     "new empty file",
			in:       WriteInput{FilePath: "empty.txt", Content: ""},
			wantFile: "",
			wantOut:  "Created empty.txt (0 lines).",
		},
		{
			name:      "overwrite without read",
			setup:     func(t *testing.T, env *Env, root string) { writeTestFile(t, root, "f.txt", "old\n") },
			in:        WriteInput{FilePath: "f.txt", Content: "new\n"},
			wantErr:   "File has not been read yet. Read it first before writing to it.",
			unchanged: "old\n",
		},
		{
			name: "overwrite after read",
			setup: func(t *testing.T, env *Env, root string) {
				writeTestFile(t, root, "f.txt", "keep\nold\n")
				readFirst(t, env, "f.txt")
			},
			in:       WriteInput{FilePath: "f.txt", Content: "keep\nnew\n"},
			wantFile: "keep\nnew\n",
			wantOut:  "Updated f.txt (+1 -1 lines).",
			wantDiff: "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n keep\n-old\n+new\n",
		},
		{
			name: "modified on disk after read",
			setup: func(t *testing.T, env *Env, root string) {
				writeTestFile(t, root, "f.txt", "old\n")
				readFirst(t, env, "f.txt")
				writeTestFile(t, root, "f.txt", "changed by someone\n")
			},
			in:        WriteInput{FilePath: "f.txt", Content: "new\n"},
			wantErr:   "modified since it was read",
			unchanged: "changed by someone\n",
		},
		{
			name: "identical content",
			setup: func(t *testing.T, env *Env, root string) {
				writeTestFile(t, root, "f.txt", "same\n")
				readFirst(t, env, "f.txt")
			},
			in:       WriteInput{FilePath: "f.txt", Content: "same\n"},
			wantFile: "same\n",
			wantOut:  "unchanged",
		},
		{
			name:    "directory",
			setup:   func(t *testing.T, env *Env, root string) { os.Mkdir(filepath.Join(root, "d"), 0o755) },
			in:      WriteInput{FilePath: "d", Content: "x"},
			wantErr: "is a directory",
		},
		{
			name:    "outside workspace",
			in:      WriteInput{FilePath: "../escape.txt", Content: "x"},
			wantErr: "is outside the workspace",
		},
		{
			name: "through a symlink that escapes",
			setup: func(t *testing.T, env *Env, root string) {
				os.Symlink(t.TempDir(), filepath.Join(root, "link"))
			},
			in:      WriteInput{FilePath: "link/x.txt", Content: "x"},
			wantErr: "outside the workspace",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, root := newTestEnv(t)
			if tt.setup != nil {
				tt.setup(t, env, root)
			}
			res, err := runTool(t, Write{}, env, tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				if tt.unchanged != "" {
					if got := readTestFile(t, root, tt.in.FilePath); got != tt.unchanged {
						t.Fatalf("file changed to %q by a refused write", got)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := readTestFile(t, root, tt.in.FilePath); got != tt.wantFile {
				t.Errorf("file = %q, want %q", got, tt.wantFile)
			}
			if !strings.Contains(res.Output, tt.wantOut) {
				t.Errorf("output %q lacks %q", res.Output, tt.wantOut)
			}
			if tt.wantDiff != "" && res.Diff != tt.wantDiff {
				t.Errorf("diff =\n%q\nwant\n%q", res.Diff, tt.wantDiff)
			}
		})
	}
}

func TestWriteThenEditWithoutRead(t *testing.T) {
	env, root := newTestEnv(t)
	if _, err := runTool(t, Write{}, env, WriteInput{FilePath: "f.go", Content: "package a\n"}); err != nil {
		t.Fatal(err)
	}
	// Write records what it wrote: a later Edit or Write needs no Read.
	if _, err := runTool(t, Edit{}, env, EditInput{FilePath: "f.go", OldString: "package a", NewString: "package b"}); err != nil {
		t.Fatalf("Edit after Write: %v", err)
	}
	if _, err := runTool(t, Write{}, env, WriteInput{FilePath: "f.go", Content: "package c\n"}); err != nil {
		t.Fatalf("Write after Edit: %v", err)
	}
	if got := readTestFile(t, root, "f.go"); got != "package c\n" {
		t.Fatalf("file = %q", got)
	}
}

func TestWriteKeepsPermissions(t *testing.T) {
	env, root := newTestEnv(t)
	p := writeTestFile(t, root, "run.sh", "#!/bin/sh\n")
	if err := os.Chmod(p, 0o755); err != nil {
		t.Fatal(err)
	}
	readFirst(t, env, "run.sh")
	if _, err := runTool(t, Write{}, env, WriteInput{FilePath: "run.sh", Content: "#!/bin/sh\necho hi\n"}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o755 {
		t.Fatalf("mode = %v, want 0755", fi.Mode().Perm())
	}
}

func TestErrNotReadIsReturned(t *testing.T) {
	env, root := newTestEnv(t)
	writeTestFile(t, root, "f.txt", "x")
	_, err := runTool(t, Write{}, env, WriteInput{FilePath: "f.txt", Content: "y"})
	if !errors.Is(err, ErrNotRead) {
		t.Fatalf("error = %v, want ErrNotRead", err)
	}
}
