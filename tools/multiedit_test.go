package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMultiEdit(t *testing.T) {
	cases := []struct {
		name    string
		initial string // "" with noFile: the file does not exist
		noFile  bool
		noRead  bool
		edits   []MultiEditItem
		want    string
		wantErr string
	}{
		{name: "in order, each on the previous result", initial: "a b c\n",
			edits: []MultiEditItem{{OldString: "a", NewString: "x"}, {OldString: "x b", NewString: "y"}}, want: "y c\n"},
		{name: "replace_all per edit", initial: "a a b\n",
			edits: []MultiEditItem{{OldString: "a", NewString: "c", ReplaceAll: true}, {OldString: "b", NewString: "d"}}, want: "c c d\n"},
		{name: "one failing edit changes nothing", initial: "a b\n",
			edits: []MultiEditItem{{OldString: "a", NewString: "x"}, {OldString: "missing", NewString: "y"}}, wantErr: "edit 2: String to replace not found"},
		{name: "ambiguous edit", initial: "a a\n",
			edits: []MultiEditItem{{OldString: "a", NewString: "x"}}, wantErr: "edit 1: Found 2 matches"},
		{name: "same strings", initial: "a\n",
			edits: []MultiEditItem{{OldString: "a", NewString: "a"}}, wantErr: "edit 1: No changes to make"},
		{name: "old_string inside an earlier new_string", initial: "a b\n",
			edits: []MultiEditItem{{OldString: "a", NewString: "xyz"}, {OldString: "y", NewString: "q"}}, wantErr: "edit 2: Cannot edit file: old_string is a substring of a new_string from a previous edit."},
		{name: "must be read first", initial: "a\n", noRead: true,
			edits: []MultiEditItem{{OldString: "a", NewString: "b"}}, wantErr: "File has not been read yet"},
		{name: "creates a new file", noFile: true,
			edits: []MultiEditItem{{OldString: "", NewString: "hello world\n"}, {OldString: "world", NewString: "there"}}, want: "hello there\n"},
		{name: "missing file without an empty first edit", noFile: true,
			edits: []MultiEditItem{{OldString: "a", NewString: "b"}}, wantErr: "File does not exist"},
		{name: "empty old_string later", initial: "a\n",
			edits: []MultiEditItem{{OldString: "a", NewString: "b"}, {OldString: "", NewString: "c"}}, wantErr: "edit 2: old_string is empty"},
		{name: "CRLF kept", initial: "one\r\ntwo\r\n",
			edits: []MultiEditItem{{OldString: "one\ntwo", NewString: "1\n2"}}, want: "1\r\n2\r\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env, root := newTestEnv(t)
			if !c.noFile {
				writeTestFile(t, root, "f.txt", c.initial)
				if !c.noRead {
					readFirst(t, env, "f.txt")
				}
			}
			res, err := runTool(t, MultiEdit{}, env, MultiEditInput{FilePath: "f.txt", Edits: c.edits})
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want %q", err, c.wantErr)
				}
				b, rerr := os.ReadFile(filepath.Join(root, "f.txt"))
				if c.noFile && rerr == nil || !c.noFile && string(b) != c.initial {
					t.Fatalf("the file changed: %q", b)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := readTestFile(t, root, "f.txt"); got != c.want {
				t.Fatalf("file %q, want %q", got, c.want)
			}
			if res.Diff == "" || !strings.Contains(res.Output, "to f.txt") {
				t.Fatalf("result %+v", res)
			}
		})
	}
}

// TestMultiEditPreviewIsRun: one diff, the same in Preview and Run.
func TestMultiEditPreviewIsRun(t *testing.T) {
	env, root := newTestEnv(t)
	writeTestFile(t, root, "f.txt", "a\nb\nc\n")
	readFirst(t, env, "f.txt")
	in := MultiEditInput{FilePath: "f.txt", Edits: []MultiEditItem{{OldString: "a", NewString: "A"}, {OldString: "c", NewString: "C"}}}
	preview, err := MultiEdit{}.Preview(env, in)
	if err != nil {
		t.Fatal(err)
	}
	env.ApprovedPreview = true
	res, err := runTool(t, MultiEdit{}, env, in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Diff != preview || strings.Count(preview, "+++ ") != 1 {
		t.Fatalf("preview\n%s\nrun\n%s", preview, res.Diff)
	}
}
