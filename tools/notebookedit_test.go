package tools

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testNotebook is an nbformat 4.5 notebook as Jupyter writes it (one-space
// indent, sorted keys), with outputs of every kind Read renders.
const testNotebook = `{
 "cells": [
  {
   "cell_type": "markdown",
   "id": "intro",
   "metadata": {},
   "source": [
    "# Title\n",
    "Some <b>text</b> & more"
   ]
  },
  {
   "cell_type": "code",
   "execution_count": 3,
   "id": "calc",
   "metadata": {
    "tags": [
     "x"
    ]
   },
   "outputs": [
    {
     "name": "stdout",
     "output_type": "stream",
     "text": [
      "hello\n"
     ]
    },
    {
     "data": {
      "image/png": "iVBORw0KGgo=",
      "text/plain": [
       "<Figure>"
      ]
     },
     "metadata": {},
     "output_type": "display_data"
    },
    {
     "ename": "ZeroDivisionError",
     "evalue": "division by zero",
     "output_type": "error",
     "traceback": [
      "\u001b[0;31mZeroDivisionError\u001b[0m: division by zero"
     ]
    }
   ],
   "source": [
    "print('hello')\n",
    "1/0"
   ]
  }
 ],
 "metadata": {
  "kernelspec": {
   "display_name": "Python 3",
   "name": "python3"
  }
 },
 "nbformat": 4,
 "nbformat_minor": 5
}
`

func TestReadNotebook(t *testing.T) {
	env, root := newTestEnv(t)
	writeTestFile(t, root, "nb.ipynb", testNotebook)
	res, err := runTool(t, Read{}, env, ReadInput{FilePath: "nb.ipynb"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"\t<cell id=\"intro\" type=\"markdown\">", "\t# Title", "\tSome <b>text</b> & more",
		"\t<cell id=\"calc\" type=\"code\" execution_count=\"3\">", "\tprint('hello')",
		"\t<output type=\"stream\" name=\"stdout\">", "\thello", "\t<Figure>", "\t[image/png output not shown]",
		"\tZeroDivisionError: division by zero", "\t</cell>",
	} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("Read of the notebook lacks %q:\n%s", want, res.Output)
		}
	}
	if strings.Contains(res.Output, "iVBORw0KGgo") || strings.Contains(res.Output, "\x1b") {
		t.Errorf("image data or ANSI in the rendering:\n%s", res.Output)
	}
	// A cap applies to the rendering as to any file.
	var cells []string
	for range 3000 {
		cells = append(cells, `{"cell_type":"code","execution_count":null,"metadata":{},"outputs":[],"source":["`+strings.Repeat("y", 300)+`"]}`)
	}
	writeTestFile(t, root, "big.ipynb", `{"cells":[`+strings.Join(cells, ",")+`],"metadata":{},"nbformat":4,"nbformat_minor":4}`)
	res, err = runTool(t, Read{}, env, ReadInput{FilePath: "big.ipynb", Limit: 100000})
	if err != nil || len(res.Output) > ReadMaxResultBytes || !strings.Contains(res.Output, "call Read with offset") {
		t.Fatalf("big notebook: %v, %d bytes", err, len(res.Output))
	}
}

func TestNotebookEdit(t *testing.T) {
	tests := []struct {
		name    string
		in      NotebookEditInput
		wantErr string
		check   func(t *testing.T, nb map[string]any, text string)
	}{
		{name: "replace code cell clears outputs", in: NotebookEditInput{CellID: "calc", NewSource: "x = 1\nx + 1"},
			check: func(t *testing.T, nb map[string]any, text string) {
				c := cellAt(t, nb, 1)
				if c["execution_count"] != nil || len(c["outputs"].([]any)) != 0 || joinAny(c["source"]) != "x = 1\nx + 1" {
					t.Errorf("cell = %v", c)
				}
				if c["metadata"].(map[string]any)["tags"] == nil {
					t.Error("cell metadata lost")
				}
			}},
		{name: "replace markdown", in: NotebookEditInput{CellID: "intro", NewSource: "# New", EditMode: "replace"},
			check: func(t *testing.T, nb map[string]any, text string) {
				if c := cellAt(t, nb, 0); joinAny(c["source"]) != "# New" || c["cell_type"] != "markdown" || c["outputs"] != nil {
					t.Errorf("cell = %v", c)
				}
			}},
		{name: "change type to markdown", in: NotebookEditInput{CellID: "calc", NewSource: "text", CellType: "markdown"},
			check: func(t *testing.T, nb map[string]any, text string) {
				c := cellAt(t, nb, 1)
				if _, has := c["outputs"]; has || c["cell_type"] != "markdown" {
					t.Errorf("cell = %v", c)
				}
				if _, has := c["execution_count"]; has {
					t.Errorf("markdown cell kept execution_count: %v", c)
				}
			}},
		{name: "insert after", in: NotebookEditInput{CellID: "intro", NewSource: "y = 2", CellType: "code", EditMode: "insert"},
			check: func(t *testing.T, nb map[string]any, text string) {
				cells := nb["cells"].([]any)
				c := cellAt(t, nb, 1)
				if len(cells) != 3 || joinAny(c["source"]) != "y = 2" || c["id"] == "" || c["id"] == nil || c["outputs"] == nil {
					t.Errorf("cells = %v", cells)
				}
			}},
		{name: "insert at start", in: NotebookEditInput{NewSource: "top", CellType: "markdown", EditMode: "insert"},
			check: func(t *testing.T, nb map[string]any, text string) {
				if c := cellAt(t, nb, 0); joinAny(c["source"]) != "top" || len(nb["cells"].([]any)) != 3 {
					t.Errorf("cell = %v", c)
				}
			}},
		{name: "delete", in: NotebookEditInput{CellID: "intro", EditMode: "delete"},
			check: func(t *testing.T, nb map[string]any, text string) {
				if cells := nb["cells"].([]any); len(cells) != 1 || cellAt(t, nb, 0)["id"] != "calc" {
					t.Errorf("cells = %v", cells)
				}
			}},
		{name: "index id for a notebook cell", in: NotebookEditInput{CellID: "cell-0", NewSource: "# By index"},
			check: func(t *testing.T, nb map[string]any, text string) {
				if joinAny(cellAt(t, nb, 0)["source"]) != "# By index" {
					t.Error("cell-0 not replaced")
				}
			}},
		{name: "unknown cell", in: NotebookEditInput{CellID: "nope", NewSource: "x"}, wantErr: `no cell with id "nope"`},
		{name: "insert without type", in: NotebookEditInput{NewSource: "x", EditMode: "insert"}, wantErr: "cell_type is required"},
		{name: "replace without cell", in: NotebookEditInput{NewSource: "x"}, wantErr: "cell_id is required"},
		{name: "bad mode", in: NotebookEditInput{CellID: "calc", NewSource: "x", EditMode: "append"}, wantErr: "edit_mode must be"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, root := newTestEnv(t)
			path := writeTestFile(t, root, "nb.ipynb", testNotebook)
			readFirst(t, env, "nb.ipynb")
			tt.in.NotebookPath = path
			preview, perr := Typed(NotebookEdit{}).(Previewer).Preview(env, mustJSON(t, tt.in))
			res, err := runTool(t, NotebookEdit{}, env, tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || perr == nil {
					t.Fatalf("err = %v (preview %v), want %q", err, perr, tt.wantErr)
				}
				if readTestFile(t, root, "nb.ipynb") != testNotebook {
					t.Fatal("a failed edit changed the file")
				}
				return
			}
			if err != nil || perr != nil {
				t.Fatalf("err = %v, preview err = %v", err, perr)
			}
			if preview != res.Diff || res.Diff == "" {
				t.Errorf("preview and result diff differ:\n%s\n---\n%s", preview, res.Diff)
			}
			text := readTestFile(t, root, "nb.ipynb")
			var nb map[string]any
			if err := json.Unmarshal([]byte(text), &nb); err != nil {
				t.Fatalf("written notebook is not JSON: %v", err)
			}
			if !strings.HasPrefix(text, "{\n \"cells\": [\n") || !strings.HasSuffix(text, "\"nbformat_minor\": 5\n}\n") || !strings.Contains(text, "<b>text</b> &") && tt.name != "delete" && !strings.Contains(tt.name, "markdown") && tt.name != "index id for a notebook cell" {
				t.Errorf("layout not kept:\n%s", text)
			}
			tt.check(t, nb, text)
		})
	}
}

// TestNotebookEditKeepsTheRest: a one-cell edit changes only that cell's lines.
func TestNotebookEditKeepsTheRest(t *testing.T) {
	env, root := newTestEnv(t)
	path := writeTestFile(t, root, "nb.ipynb", testNotebook)
	readFirst(t, env, "nb.ipynb")
	res, err := runTool(t, NotebookEdit{}, env, NotebookEditInput{NotebookPath: path, CellID: "intro", NewSource: "# Title\nOther"})
	if err != nil {
		t.Fatal(err)
	}
	var changed []string
	for _, l := range strings.Split(res.Diff, "\n") {
		if (strings.HasPrefix(l, "-") || strings.HasPrefix(l, "+")) && !strings.HasPrefix(l, "---") && !strings.HasPrefix(l, "+++") {
			changed = append(changed, l)
		}
	}
	if want := []string{`-    "Some <b>text</b> & more"`, `+    "Other"`}; strings.Join(changed, "\n") != strings.Join(want, "\n") {
		t.Errorf("changed lines = %q, want %q\n%s", changed, want, res.Diff)
	}
}

func TestNotebookEditGuards(t *testing.T) {
	env, root := newTestEnv(t)
	path := writeTestFile(t, root, "nb.ipynb", testNotebook)
	in := NotebookEditInput{NotebookPath: path, CellID: "calc", NewSource: "pwned = 1"}
	if _, err := runTool(t, NotebookEdit{}, env, in); err == nil || !strings.Contains(err.Error(), "read") {
		t.Fatalf("edit before Read: %v", err)
	}
	readFirst(t, env, "nb.ipynb")
	writeTestFile(t, root, "nb.ipynb", strings.Replace(testNotebook, "hello", "changed", 1))
	if _, err := runTool(t, NotebookEdit{}, env, in); err == nil {
		t.Fatal("edit of a notebook changed since Read succeeded")
	}
	writeTestFile(t, root, "plain.txt", "x\n")
	readFirst(t, env, "plain.txt")
	if _, err := runTool(t, NotebookEdit{}, env, NotebookEditInput{NotebookPath: "plain.txt", CellID: "cell-0", NewSource: "x"}); err == nil || !strings.Contains(err.Error(), "not a Jupyter notebook") {
		t.Fatalf("non-notebook: %v", err)
	}
	// Outside the workspace: directly, by ../, and through symlinks (file and directory).
	outside := t.TempDir()
	victim := filepath.Join(outside, "v.ipynb")
	if err := os.WriteFile(victim, []byte(testNotebook), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(root, "link.ipynb")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "dirlink")); err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(root, victim)
	for _, p := range []string{victim, rel, "link.ipynb", "dirlink/v.ipynb", filepath.Join(root, "dirlink", "v.ipynb")} {
		_, _ = runTool(t, Read{}, env, ReadInput{FilePath: p})
		if _, err := runTool(t, NotebookEdit{}, env, NotebookEditInput{NotebookPath: p, CellID: "calc", NewSource: "pwned = 1"}); err == nil {
			t.Errorf("NotebookEdit %s outside the workspace succeeded", p)
		}
		if _, err := Typed(NotebookEdit{}).(Previewer).Preview(env, mustJSON(t, NotebookEditInput{NotebookPath: p, CellID: "calc", NewSource: "pwned = 1"})); err == nil {
			t.Errorf("Preview of %s outside the workspace succeeded", p)
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != testNotebook {
		t.Fatal("the notebook outside the workspace was changed")
	}
}

func cellAt(t *testing.T, nb map[string]any, i int) map[string]any {
	t.Helper()
	cells := nb["cells"].([]any)
	if i >= len(cells) {
		t.Fatalf("no cell %d", i)
	}
	return cells[i].(map[string]any)
}

func joinAny(v any) string {
	var b strings.Builder
	for _, s := range v.([]any) {
		b.WriteString(s.(string))
	}
	return b.String()
}
