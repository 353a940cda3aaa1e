package tools

import (
	"errors"
	"strings"
	"testing"
)

// TestApplyEditLoose: the indentation fallback, table by table.
func TestApplyEditLoose(t *testing.T) {
	goFile := "package p\n\nfunc f() {\n\tif x {\n\t\treturn 1\n\t}\n\treturn 2\n}\n"
	cases := []struct {
		name, content, old, new string
		want                    string
		wantNote                string // part of the note; "" for an exact match
		wantErr                 string // part of the error
	}{
		{name: "exact match, no note", content: goFile, old: "\treturn 2", new: "\treturn 3",
			want: strings.Replace(goFile, "\treturn 2", "\treturn 3", 1)},
		{name: "spaces for tabs, re-indented to tabs", content: goFile,
			old:  "    if x {\n        return 1\n    }",
			new:  "    if x {\n        return 10\n    } else {\n        return 11\n    }",
			want: "package p\n\nfunc f() {\n\tif x {\n\t\treturn 10\n\t} else {\n\t\treturn 11\n\t}\n\treturn 2\n}\n", wantNote: "tabs"},
		{name: "a deeper new line counted in levels", content: goFile,
			old:  "    return 2\n",
			new:  "    for {\n            break\n    }\n",
			want: "package p\n\nfunc f() {\n\tif x {\n\t\treturn 1\n\t}\n\tfor {\n\t\t\tbreak\n\t}\n}\n", wantNote: "tabs"},
		{name: "tabs for spaces", content: "def f():\n    if x:\n        return 1\n",
			old: "\tif x:\n\t\treturn 1", new: "\tif y:\n\t\treturn 2",
			want: "def f():\n    if y:\n        return 2\n", wantNote: "spaces"},
		{name: "CRLF file", content: "a\r\n\tb\r\n\tc\r\n", old: "  b\n  c", new: "  B\n  C",
			want: "a\r\n\tB\r\n\tC\r\n", wantNote: "tabs"},
		{name: "not unique: refused, closest quoted", content: "x\n\ty\nx\n\ty\n", old: "x\n  y", new: "z",
			wantErr: "String to replace not found"},
		{name: "not found: closest lines with numbers", content: goFile, old: "\t\treturn 100\n", new: "x",
			wantErr: "closest match in the file starts at line 5:\n     5\t\t\treturn 1"},
		{name: "nothing close: plain error", content: goFile, old: "zzzzqqqq", new: "x",
			wantErr: "String to replace not found in file."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, _, note, err := applyEditLoose(c.content, c.old, c.new, false)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) || !errors.Is(err, errNotFound) {
					t.Fatalf("err = %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("got\n%q\nwant\n%q", got, c.want)
			}
			if (c.wantNote == "") != (note == "") || !strings.Contains(note, c.wantNote) {
				t.Fatalf("note %q, want one with %q", note, c.wantNote)
			}
		})
	}
}

// TestEditIndentFallbackResult: the Edit tool says so in its result.
func TestEditIndentFallbackResult(t *testing.T) {
	env, root := newTestEnv(t)
	writeTestFile(t, root, "f.go", "func f() {\n\treturn\n}\n")
	readFirst(t, env, "f.go")
	res, err := runTool(t, Edit{}, env, EditInput{FilePath: "f.go", OldString: "    return", NewString: "    return nil"})
	if err != nil {
		t.Fatal(err)
	}
	if got := readTestFile(t, root, "f.go"); got != "func f() {\n\treturn nil\n}\n" {
		t.Fatalf("file %q", got)
	}
	if !strings.Contains(res.Output, "re-indented") {
		t.Fatalf("output %q", res.Output)
	}
}
