package tools

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestApplyEdit(t *testing.T) {
	tests := []struct {
		name       string
		content    string
		old, new   string
		replaceAll bool
		want       string
		wantN      int
		wantErr    string
	}{
		{name: "unique", content: "a b c", old: "b", new: "B", want: "a B c", wantN: 1},
		{name: "multi-line", content: "one\ntwo\nthree\n", old: "one\ntwo", new: "1\n2", want: "1\n2\nthree\n", wantN: 1},
		{name: "not found", content: "abc", old: "x", new: "y", wantErr: "String to replace not found"},
		{name: "whitespace must match", content: "\tindented\n", old: "    indented", new: "x", wantErr: "not found"},
		{name: "ambiguous", content: "x x x", old: "x", new: "y", wantN: 3, wantErr: "Found 3 matches of the string to replace, but replace_all is false"},
		{name: "ambiguous hints", content: "x x", old: "x", new: "y", wantN: 2, wantErr: "add more surrounding lines"},
		{name: "replace all", content: "x x x", old: "x", new: "y", replaceAll: true, want: "y y y", wantN: 3},
		{name: "replace all with one match", content: "x", old: "x", new: "y", replaceAll: true, want: "y", wantN: 1},
		{name: "same strings", content: "x", old: "x", new: "x", wantErr: "No changes to make"},
		{name: "delete", content: "keep drop keep", old: " drop", new: "", want: "keep keep", wantN: 1},
		{name: "crlf file, lf strings", content: "a\r\nb\r\nc\r\n", old: "a\nb", new: "x\ny\nz", want: "x\r\ny\r\nz\r\nc\r\n", wantN: 1},
		{name: "crlf file, crlf strings", content: "a\r\nb\r\n", old: "a\r\nb", new: "x\r\ny", want: "x\r\ny\r\n", wantN: 1},
		{name: "crlf file, single-line old, multi-line new", content: "a\r\nb\r\n", old: "b", new: "b\nc", want: "a\r\nb\r\nc\r\n", wantN: 1},
		{name: "lf file, crlf strings", content: "a\nb\n", old: "a\r\nb", new: "x\r\ny", want: "x\ny\n", wantN: 1},
		{name: "mixed file: lf region matched as given", content: "a\r\nb\r\nc\nd\n\r\ne\r\n", old: "c\nd", new: "C\nD", want: "a\r\nb\r\nC\nD\n\r\ne\r\n", wantN: 1},
		{name: "bom kept", content: "\uFEFFhello\nworld\n", old: "hello", new: "bye", want: "\uFEFFbye\nworld\n", wantN: 1},
		{name: "bom in old_string ignored", content: "\uFEFFhello\n", old: "\uFEFFhello", new: "bye", want: "\uFEFFbye\n", wantN: 1},
		{name: "bom and crlf", content: "\uFEFFa\r\nb\r\n", old: "a\nb", new: "c", want: "\uFEFFc\r\n", wantN: 1},
		{name: "untouched bytes exact", content: "x  \t\n\n\xff trailing   \nlast", old: "trailing", new: "T", want: "x  \t\n\n\xff T   \nlast", wantN: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, n, err := applyEdit(tt.content, tt.old, tt.new, tt.replaceAll)
			if n != tt.wantN {
				t.Errorf("n = %d, want %d", n, tt.wantN)
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestEdit(t *testing.T) {
	tests := []struct {
		name     string
		initial  string // content of f.txt; "" for no file
		read     bool   // Read f.txt before the edit
		external string // content written to f.txt after the Read, if any
		in       EditInput
		want     string // file content afterwards (unchanged on error)
		wantOut  []string
		wantErr  string
	}{
		{
			name: "replace", initial: "a\nb\nc\n", read: true,
			in:      EditInput{OldString: "b", NewString: "B"},
			want:    "a\nB\nc\n",
			wantOut: []string{"Edited f.txt: replaced 1 occurrence.", "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		},
		{
			name: "replace all", initial: "x\nx\nx\n", read: true,
			in:      EditInput{OldString: "x", NewString: "y", ReplaceAll: true},
			want:    "y\ny\ny\n",
			wantOut: []string{"replaced 3 occurrences"},
		},
		{
			name: "not read", initial: "a\n",
			in: EditInput{OldString: "a", NewString: "b"}, want: "a\n",
			wantErr: "File has not been read yet. Read it first before writing to it.",
		},
		{
			name: "not found", initial: "a\n", read: true,
			in: EditInput{OldString: "zzz", NewString: "b"}, want: "a\n",
			wantErr: "String to replace not found in file",
		},
		{
			name: "several matches", initial: "a a\n", read: true,
			in: EditInput{OldString: "a", NewString: "b"}, want: "a a\n",
			wantErr: "Found 2 matches",
		},
		{
			name: "old equals new", initial: "a\n", read: true,
			in: EditInput{OldString: "a", NewString: "a"}, want: "a\n",
			wantErr: "No changes to make",
		},
		{
			name: "changed on disk, still unique", initial: "one\ntwo\n", read: true, external: "zero\none\ntwo\n",
			in:      EditInput{OldString: "two", NewString: "2"},
			want:    "zero\none\n2\n",
			wantOut: []string{"had changed on disk"},
		},
		{
			name: "changed on disk, gone", initial: "one\ntwo\n", read: true, external: "one\n",
			in: EditInput{OldString: "two", NewString: "2"}, want: "one\n",
			wantErr: "modified since it was read",
		},
		{
			name: "changed on disk, several with replace_all", initial: "x\n", read: true, external: "x\nx\n",
			in: EditInput{OldString: "x", NewString: "y", ReplaceAll: true}, want: "x\nx\n",
			wantErr: "modified since it was read",
		},
		{
			name: "missing file", read: false,
			in:      EditInput{OldString: "a", NewString: "b"},
			wantErr: "File does not exist: f.txt",
		},
		{
			name:    "empty old_string creates",
			in:      EditInput{OldString: "", NewString: "new\n"},
			want:    "new\n",
			wantOut: []string{"Created f.txt (1 line)."},
		},
		{
			name: "empty old_string on content", initial: "a\n", read: true,
			in: EditInput{OldString: "", NewString: "b"}, want: "a\n",
			wantErr: "already has content",
		},
		{
			name: "crlf round trip", initial: "one\r\ntwo\r\nthree\r\n", read: true,
			in:   EditInput{OldString: "one\ntwo\n", NewString: "1\n2\n2.5\n"},
			want: "1\r\n2\r\n2.5\r\nthree\r\n",
		},
		{
			name: "bom round trip", initial: "\uFEFFpackage a\n\nfunc f() {}\n", read: true,
			in:   EditInput{OldString: "func f() {}", NewString: "func g() {}"},
			want: "\uFEFFpackage a\n\nfunc g() {}\n",
		},
		{
			name: "no final newline kept", initial: "a\nb", read: true,
			in:   EditInput{OldString: "a", NewString: "A"},
			want: "A\nb",
		},
		{
			name: "outside workspace", in: EditInput{FilePath: "../x.txt", OldString: "a", NewString: "b"},
			wantErr: "outside the workspace",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, root := newTestEnv(t)
			if tt.initial != "" {
				writeTestFile(t, root, "f.txt", tt.initial)
			}
			if tt.read {
				readFirst(t, env, "f.txt")
			}
			if tt.external != "" {
				writeTestFile(t, root, "f.txt", tt.external)
			}
			in := tt.in
			if in.FilePath == "" {
				in.FilePath = "f.txt"
			}
			res, err := runTool(t, Edit{}, env, in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if tt.want != "" {
				if got := readTestFile(t, root, "f.txt"); got != tt.want {
					t.Errorf("file = %q, want %q", got, tt.want)
				}
			}
			for _, s := range tt.wantOut {
				if !strings.Contains(res.Output, s) {
					t.Errorf("output %q lacks %q", res.Output, s)
				}
			}
			if err == nil && res.Diff == "" {
				t.Error("no diff for a successful edit")
			}
		})
	}
}

func TestEditUpdatesFileState(t *testing.T) {
	env, root := newTestEnv(t)
	p := writeTestFile(t, root, "f.txt", "a\nb\n")
	readFirst(t, env, "f.txt")
	for i, step := range []EditInput{
		{FilePath: "f.txt", OldString: "a", NewString: "A"},
		{FilePath: "f.txt", OldString: "b", NewString: "B"}, // no Read in between
	} {
		if _, err := runTool(t, Edit{}, env, step); err != nil {
			t.Fatalf("edit %d: %v", i, err)
		}
	}
	if !env.Files.Unchanged(p, []byte("A\nB\n")) {
		t.Fatal("FileState does not hold the edited content")
	}
}

func TestEditKeepsPermissions(t *testing.T) {
	env, root := newTestEnv(t)
	p := writeTestFile(t, root, "f.txt", "a\n")
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	readFirst(t, env, "f.txt")
	if _, err := runTool(t, Edit{}, env, EditInput{FilePath: "f.txt", OldString: "a", NewString: "b"}); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode = %v", fi.Mode().Perm())
	}
}

// BenchmarkEditLargeFile edits one line in the middle of a 10k-line file: read
// check, replace, write, FileState update and diff.
func BenchmarkEditLargeFile(b *testing.B) {
	env, root := newTestEnv(b)
	var sb strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&sb, "line %d: some ordinary source text\n", i)
	}
	p := writeTestFile(b, root, "big.txt", sb.String())
	readFirst(b, env, "big.txt")
	ins := [2]EditInput{
		{FilePath: "big.txt", OldString: "line 5000: some", NewString: "line 5000: changed"},
		{FilePath: "big.txt", OldString: "line 5000: changed", NewString: "line 5000: some"},
	}
	inputs := [2][]byte{mustJSON(b, ins[0]), mustJSON(b, ins[1])}
	b.SetBytes(int64(sb.Len()))
	i := 0
	for b.Loop() {
		if _, err := Typed(Edit{}).Run(b.Context(), env, inputs[i%2]); err != nil {
			b.Fatal(err)
		}
		i++
	}
	_ = p
}
