package tools

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// patchScenario is one apply_patch case in the manner of Codex's fixture
// scenarios: the files before, the patch, and the exact files after (every
// file of the workspace, nothing more), plus a part of the error text when the
// patch must fail.
type patchScenario struct {
	name    string
	input   map[string]string
	patch   string
	want    map[string]string
	wantErr string
}

var patchScenarios = []patchScenario{
	{name: "add file", patch: "*** Begin Patch\n*** Add File: bar.md\n+This is a new file\n*** End Patch\n",
		want: map[string]string{"bar.md": "This is a new file\n"}},
	{name: "multiple operations",
		input: map[string]string{"delete.txt": "obsolete\n", "modify.txt": "line1\nline2\n"},
		patch: "*** Begin Patch\n*** Add File: nested/new.txt\n+created\n*** Delete File: delete.txt\n*** Update File: modify.txt\n@@\n-line2\n+changed\n*** End Patch\n",
		want:  map[string]string{"nested/new.txt": "created\n", "modify.txt": "line1\nchanged\n"}},
	{name: "blanks around header paths trimmed",
		input: map[string]string{"modify.txt": "line1\n", "del.txt": "x\n"},
		patch: "*** Begin Patch\n*** Add File:    sub/new.txt  \n+created\n*** Delete File: \tdel.txt\n*** Update File:  modify.txt\n*** Move to:   moved/m.txt \n@@\n-line1\n+changed\n*** End Patch\n",
		want:  map[string]string{"sub/new.txt": "created\n", "moved/m.txt": "changed\n"}},
	{name: "multiple chunks",
		input: map[string]string{"multi.txt": "line1\nline2\nline3\nline4\n"},
		patch: "*** Begin Patch\n*** Update File: multi.txt\n@@\n-line2\n+changed2\n@@\n-line4\n+changed4\n*** End Patch\n",
		want:  map[string]string{"multi.txt": "line1\nchanged2\nline3\nchanged4\n"}},
	{name: "move to new directory",
		input: map[string]string{"old/name.txt": "old content\n", "old/other.txt": "unrelated\n"},
		patch: "*** Begin Patch\n*** Update File: old/name.txt\n*** Move to: renamed/dir/name.txt\n@@\n-old content\n+new content\n*** End Patch\n",
		want:  map[string]string{"old/other.txt": "unrelated\n", "renamed/dir/name.txt": "new content\n"}},
	{name: "rejects empty patch", input: map[string]string{"foo.txt": "stable\n"},
		patch: "*** Begin Patch\n*** End Patch\n", want: map[string]string{"foo.txt": "stable\n"}, wantErr: "No files were modified."},
	{name: "rejects missing context", input: map[string]string{"modify.txt": "line1\nline2\n"},
		patch: "*** Begin Patch\n*** Update File: modify.txt\n@@\n-missing\n+changed\n*** End Patch\n",
		want:  map[string]string{"modify.txt": "line1\nline2\n"}, wantErr: "Failed to find expected lines in modify.txt:\nmissing"},
	{name: "rejects missing context header", input: map[string]string{"modify.txt": "line1\nline2\n"},
		patch: "*** Begin Patch\n*** Update File: modify.txt\n@@ func nowhere()\n-line2\n+changed\n*** End Patch\n",
		want:  map[string]string{"modify.txt": "line1\nline2\n"}, wantErr: "Failed to find context 'func nowhere()' in modify.txt"},
	{name: "rejects missing file delete", input: map[string]string{"foo.txt": "stable\n"},
		patch: "*** Begin Patch\n*** Delete File: missing.txt\n*** End Patch\n",
		want:  map[string]string{"foo.txt": "stable\n"}, wantErr: "Failed to delete file missing.txt"},
	{name: "rejects empty update hunk", input: map[string]string{"foo.txt": "stable\n"},
		patch: "*** Begin Patch\n*** Update File: foo.txt\n*** End Patch\n",
		want:  map[string]string{"foo.txt": "stable\n"}, wantErr: "Invalid patch hunk on line 2: Update file hunk for path 'foo.txt' is empty"},
	{name: "requires existing file for update", input: map[string]string{"foo.txt": "stable\n"},
		patch: "*** Begin Patch\n*** Update File: missing.txt\n@@\n-old\n+new\n*** End Patch\n",
		want:  map[string]string{"foo.txt": "stable\n"}, wantErr: "Failed to read file to update missing.txt"},
	{name: "move overwrites existing destination",
		input: map[string]string{"old/name.txt": "from\n", "old/other.txt": "other\n", "renamed/dir/name.txt": "existing\n"},
		patch: "*** Begin Patch\n*** Update File: old/name.txt\n*** Move to: renamed/dir/name.txt\n@@\n-from\n+new\n*** End Patch\n",
		want:  map[string]string{"old/other.txt": "other\n", "renamed/dir/name.txt": "new\n"}},
	{name: "add overwrites existing file", input: map[string]string{"duplicate.txt": "old content\n"},
		patch: "*** Begin Patch\n*** Add File: duplicate.txt\n+new content\n*** End Patch\n",
		want:  map[string]string{"duplicate.txt": "new content\n"}},
	{name: "delete directory fails", input: map[string]string{"dir/foo.txt": "stay\n"},
		patch: "*** Begin Patch\n*** Delete File: dir\n*** End Patch\n",
		want:  map[string]string{"dir/foo.txt": "stay\n"}, wantErr: "Failed to delete file dir"},
	{name: "rejects invalid hunk header", input: map[string]string{"foo.txt": "stable\n"},
		patch: "*** Begin Patch\n*** Frobnicate File: foo\n*** End Patch\n",
		want:  map[string]string{"foo.txt": "stable\n"}, wantErr: "Invalid patch hunk on line 2: '*** Frobnicate File: foo' is not a valid hunk header"},
	{name: "update appends trailing newline", input: map[string]string{"no_newline.txt": "no newline at end"},
		patch: "*** Begin Patch\n*** Update File: no_newline.txt\n@@\n-no newline at end\n+first line\n+second line\n*** End Patch\n",
		want:  map[string]string{"no_newline.txt": "first line\nsecond line\n"}},
	{name: "failure after a good hunk changes nothing",
		patch: "*** Begin Patch\n*** Add File: created.txt\n+hello\n*** Update File: missing.txt\n@@\n-old\n+new\n*** End Patch\n",
		want:  map[string]string{}, wantErr: "Failed to read file to update missing.txt"},
	{name: "pure addition chunk appends", input: map[string]string{"input.txt": "line1\nline2\n"},
		patch: "*** Begin Patch\n*** Update File: input.txt\n@@\n+added line 1\n+added line 2\n*** End Patch\n",
		want:  map[string]string{"input.txt": "line1\nline2\nadded line 1\nadded line 2\n"}},
	{name: "whitespace padded hunk header", input: map[string]string{"foo.txt": "old\n"},
		patch: "*** Begin Patch\n  *** Update File: foo.txt\n@@\n-old\n+new\n*** End Patch\n",
		want:  map[string]string{"foo.txt": "new\n"}},
	{name: "whitespace padded patch markers", input: map[string]string{"file.txt": "one\n"},
		patch: " *** Begin Patch\n*** Update File: file.txt\n@@\n-one\n+two\n*** End Patch \n",
		want:  map[string]string{"file.txt": "two\n"}},
	{name: "whitespace padded marker lines", input: map[string]string{"file.txt": "one\n"},
		patch: "*** Begin Patch \n*** Update File: file.txt\n@@\n-one\n+two\n *** End Patch\n",
		want:  map[string]string{"file.txt": "two\n"}},
	{name: "unicode", input: map[string]string{"foo.txt": "line1\nnaïve café\nline3\n"},
		patch: "*** Begin Patch\n*** Update File: foo.txt\n@@\n line1\n-naïve café\n+naïve café ✅\n*** End Patch\n",
		want:  map[string]string{"foo.txt": "line1\nnaïve café ✅\nline3\n"}},
	{name: "delete file", input: map[string]string{"keep.txt": "keep\n", "obsolete.txt": "gone\n"},
		patch: "*** Begin Patch\n*** Delete File: obsolete.txt\n*** End Patch\n",
		want:  map[string]string{"keep.txt": "keep\n"}},
	{name: "deletion only", input: map[string]string{"lines.txt": "line1\nremove me\nline3\n"},
		patch: "*** Begin Patch\n*** Update File: lines.txt\n@@\n line1\n-remove me\n line3\n*** End Patch\n",
		want:  map[string]string{"lines.txt": "line1\nline3\n"}},
	{name: "end of file marker", input: map[string]string{"tail.txt": "first\nsecond\n"},
		patch: "*** Begin Patch\n*** Update File: tail.txt\n@@\n first\n-second\n+second updated\n*** End of File\n*** End Patch\n",
		want:  map[string]string{"tail.txt": "first\nsecond updated\n"}},
	{name: "end of file picks the last occurrence", input: map[string]string{"t.txt": "x\nend\nx\nend\n"},
		patch: "*** Begin Patch\n*** Update File: t.txt\n@@\n-end\n+END\n*** End of File\n*** End Patch\n",
		want:  map[string]string{"t.txt": "x\nend\nx\nEND\n"}},
	{name: "heredoc wrapper", input: map[string]string{"a.txt": "a\n"},
		patch: "<<'EOF'\n*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n*** End Patch\nEOF\n",
		want:  map[string]string{"a.txt": "b\n"}},
	{name: "apply_patch heredoc wrapper", input: map[string]string{"a.txt": "a\n"},
		patch: "apply_patch <<\"EOF\"\n*** Begin Patch\n*** Update File: a.txt\n-a\n+b\n*** End Patch\nEOF",
		want:  map[string]string{"a.txt": "b\n"}},
	{name: "missing @@ on the first chunk", input: map[string]string{"f.py": "import foo\n"},
		patch: "*** Begin Patch\n*** Update File: f.py\n import foo\n+bar\n*** End Patch",
		want:  map[string]string{"f.py": "import foo\nbar\n"}},
	{name: "second chunk needs @@", input: map[string]string{"f.py": "a\nb\n"},
		patch: "*** Begin Patch\n*** Update File: f.py\n-a\n+A\n\nnot a diff line\n*** End Patch",
		want:  map[string]string{"f.py": "a\nb\n"}, wantErr: "Expected update hunk to start with a @@ context marker, got: 'not a diff line'"},
	{name: "context header narrows the match", input: map[string]string{"m.py": "def a():\n    return 1\ndef b():\n    return 1\n"},
		patch: "*** Begin Patch\n*** Update File: m.py\n@@ def b():\n-    return 1\n+    return 2\n*** End Patch",
		want:  map[string]string{"m.py": "def a():\n    return 1\ndef b():\n    return 2\n"}},
	{name: "trailing whitespace tolerated", input: map[string]string{"w.txt": "keep   \nold\t\n"},
		patch: "*** Begin Patch\n*** Update File: w.txt\n@@\n keep\n-old\n+new\n*** End Patch",
		want:  map[string]string{"w.txt": "keep\nnew\n"}}, // as Codex: the chunk's lines replace the matched ones, context included
	{name: "indentation tolerated", input: map[string]string{"w.go": "func f() {\n\treturn\n}\n"},
		patch: "*** Begin Patch\n*** Update File: w.go\n@@\n func f() {\n-    return\n+\treturn nil\n*** End Patch",
		want:  map[string]string{"w.go": "func f() {\n\treturn nil\n}\n"}},
	{name: "typographic punctuation tolerated", input: map[string]string{"p.txt": "say “hi” — now\n"},
		patch: "*** Begin Patch\n*** Update File: p.txt\n@@\n-say \"hi\" - now\n+say hello\n*** End Patch",
		want:  map[string]string{"p.txt": "say hello\n"}},
	{name: "CRLF and BOM kept", input: map[string]string{"c.txt": "\ufeffone\r\ntwo\r\nthree\r\n"},
		patch: "*** Begin Patch\n*** Update File: c.txt\n@@\n one\n-two\n+TWO\n+2.5\n*** End Patch",
		want:  map[string]string{"c.txt": "\ufeffone\r\nTWO\r\n2.5\r\nthree\r\n"}},
	{name: "add then update the same file", patch: "*** Begin Patch\n*** Add File: n.txt\n+a\n+b\n*** Update File: n.txt\n@@\n-b\n+c\n*** End Patch",
		want: map[string]string{"n.txt": "a\nc\n"}},
	{name: "bad first line", input: map[string]string{"a.txt": "a\n"}, patch: "Begin Patch\n*** End Patch",
		want: map[string]string{"a.txt": "a\n"}, wantErr: "Invalid patch: The first line of the patch must be '*** Begin Patch'"},
	{name: "bad last line", input: map[string]string{"a.txt": "a\n"}, patch: "*** Begin Patch\n*** Delete File: a.txt",
		want: map[string]string{"a.txt": "a\n"}, wantErr: "Invalid patch: The last line of the patch must be '*** End Patch'"},
	{name: "unexpected line in a chunk", input: map[string]string{"a.txt": "a\n"},
		patch: "*** Begin Patch\n*** Update File: a.txt\n@@\nxa\n*** End Patch",
		want:  map[string]string{"a.txt": "a\n"}, wantErr: "Invalid patch hunk on line 4: Unexpected line found in update hunk: 'xa'"},
}

// TestApplyPatchScenarios runs every scenario through the tool as the agent
// calls it (Typed, JSON input) and compares the whole workspace afterwards.
func TestApplyPatchScenarios(t *testing.T) {
	for _, sc := range patchScenarios {
		t.Run(sc.name, func(t *testing.T) {
			env, root := newTestEnv(t)
			for rel, content := range sc.input {
				writeTestFile(t, root, rel, content)
			}
			res, err := runTool(t, ApplyPatch{}, env, ApplyPatchInput{Input: sc.patch})
			switch {
			case sc.wantErr != "" && err == nil:
				t.Fatalf("no error; want %q (output %q)", sc.wantErr, res.Output)
			case sc.wantErr != "" && !strings.Contains(err.Error(), sc.wantErr):
				t.Fatalf("error %q; want it to contain %q", err, sc.wantErr)
			case sc.wantErr == "" && err != nil:
				t.Fatalf("error: %v", err)
			}
			if got := patchSnapshot(t, root); !equalFiles(got, sc.want) {
				t.Fatalf("files after:\n%q\nwant:\n%q", got, sc.want)
			}
		})
	}
}

// snapshot returns every regular file under root, relative path -> content.
func patchSnapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func equalFiles(a, b map[string]string) bool {
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

// TestApplyPatchOutputAndPreview checks Codex's summary, that Preview's diff
// is Run's, that Paths lists Move targets, and that the read state follows.
func TestApplyPatchOutputAndPreview(t *testing.T) {
	env, root := newTestEnv(t)
	writeTestFile(t, root, "a.txt", "one\ntwo\n")
	writeTestFile(t, root, "gone.txt", "bye\n")
	in := ApplyPatchInput{Input: "*** Begin Patch\n*** Add File: new.txt\n+hi\n*** Update File: a.txt\n*** Move to: b/a.txt\n@@\n-two\n+2\n*** Delete File: gone.txt\n*** End Patch"}
	paths := ApplyPatch{}.Paths(env, in)
	var rels []string
	for _, p := range paths {
		rels = append(rels, env.Workspace.Rel(p))
	}
	sort.Strings(rels)
	if strings.Join(rels, ",") != "a.txt,b/a.txt,gone.txt,new.txt" {
		t.Fatalf("Paths = %v", rels)
	}
	preview, err := ApplyPatch{}.Preview(env, in)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "new.txt")); err == nil {
		t.Fatal("Preview wrote a file")
	}
	env.ApprovedPreview = true
	res, err := runTool(t, ApplyPatch{}, env, in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Diff != preview {
		t.Fatalf("Run diff differs from Preview:\n%s\n---\n%s", res.Diff, preview)
	}
	wantHead := "Success. Updated the following files:\nA new.txt\nM b/a.txt\nD gone.txt\n"
	if !strings.HasPrefix(res.Output, wantHead) {
		t.Fatalf("output %q", res.Output)
	}
	for _, want := range []string{"--- /dev/null\n+++ b/new.txt", "--- a/a.txt\n+++ /dev/null", "+++ b/b/a.txt", "--- a/gone.txt\n+++ /dev/null"} {
		if !strings.Contains(res.Diff, want) {
			t.Errorf("diff lacks %q:\n%s", want, res.Diff)
		}
	}
	if _, ok := env.Files.Lookup(filepath.Join(root, "b/a.txt")); !ok {
		t.Error("the moved file's new state was not recorded")
	}
	if s := (ApplyPatch{}).Summary(in); s != "apply_patch new.txt, a.txt -> b/a.txt, gone.txt" {
		t.Errorf("summary %q", s)
	}
}

// TestApplyPatchChangedSinceApproval: a file changed between the approved
// preview and the write leaves every file alone.
func TestApplyPatchChangedSinceApproval(t *testing.T) {
	env, root := newTestEnv(t)
	writeTestFile(t, root, "a.txt", "one\ntwo\n")
	in := ApplyPatchInput{Input: "*** Begin Patch\n*** Add File: x.txt\n+x\n*** Update File: a.txt\n@@\n-two\n+2\n*** End Patch"}
	if _, err := (ApplyPatch{}).Preview(env, in); err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, root, "a.txt", "one\ntwo\nthree\n")
	env.ApprovedPreview = true
	if _, err := runTool(t, ApplyPatch{}, env, in); err == nil || !strings.Contains(err.Error(), ErrChangedSinceApproval.Error()) {
		t.Fatalf("err = %v", err)
	}
	if got := patchSnapshot(t, root); !equalFiles(got, map[string]string{"a.txt": "one\ntwo\nthree\n"}) {
		t.Fatalf("files %q", got)
	}
}

// TestApplyPatchPreconditions: parse and match failures are CannotSucceed
// (the call is not asked), the path guard's are not.
func TestApplyPatchPreconditions(t *testing.T) {
	env, _ := newTestEnv(t)
	_, err := ApplyPatch{}.Preview(env, ApplyPatchInput{Input: "nonsense"})
	if !CannotSucceed(err) {
		t.Fatalf("parse error %v not CannotSucceed", err)
	}
	_, err = ApplyPatch{}.Preview(env, ApplyPatchInput{Input: "*** Begin Patch\n*** Add File: ../out.txt\n+x\n*** End Patch"})
	if err == nil || CannotSucceed(err) {
		t.Fatalf("outside path: err %v", err)
	}
}

// TestApplyPatchSchema holds apply_patch's schema and input struct to the
// same fields (it is not in Default, which the general check walks).
func TestApplyPatchSchema(t *testing.T) {
	tool := Typed(ApplyPatch{})
	var schema map[string]any
	if err := json.Unmarshal(tool.Spec().Schema, &schema); err != nil {
		t.Fatal(err)
	}
	for _, problem := range schemaAgrees("", schema, reflect.TypeFor[ApplyPatchInput]()) {
		t.Error(problem)
	}
}
