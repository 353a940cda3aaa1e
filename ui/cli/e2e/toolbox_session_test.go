package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"pincer/core/provider/openai/openaitest"
)

// TestToolboxSession: one scripted `pincer run` session through the real
// binary uses Read on a 5 MB file with limit 100000 (the result stays under
// the 256 KB cap and names the offset to read on), Read and NotebookEdit on a
// notebook (the cell's source changes, the outputs of the replaced code cell
// are cleared, Read shows cells), and Bash printing binary bytes (the result
// sent back is valid UTF-8 with the escape note).
func TestToolboxSession(t *testing.T) {
	var big strings.Builder
	for i := 0; big.Len() < 5<<20; i++ {
		fmt.Fprintf(&big, "line %07d of a big log file, padded to about sixty bytes\n", i)
	}
	nb := `{
 "cells": [
  {"cell_type": "code", "execution_count": 3, "id": "c1", "metadata": {}, "outputs": [{"name": "stdout", "output_type": "stream", "text": ["old output\n"]}], "source": ["print('old')\n"]}
 ],
 "metadata": {},
 "nbformat": 4,
 "nbformat_minor": 5
}
`
	e := newEnv(t)
	e.write("big.log", big.String())
	e.write("nb.ipynb", nb)
	nbPath := filepath.Join(e.repo, "nb.ipynb")
	editArgs, _ := json.Marshal(map[string]string{"notebook_path": nbPath, "cell_id": "c1", "new_source": "print('new')\n", "edit_mode": "replace"})
	readNB, _ := json.Marshal(map[string]string{"file_path": nbPath})
	e.fake.Push(
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "r1", Name: "Read", Args: `{"file_path":"big.log","limit":100000}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "r2", Name: "Read", Args: string(readNB)}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "n1", Name: "NotebookEdit", Args: string(editArgs)}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "b1", Name: "Bash", Args: `{"command":"printf 'head\\000\\001\\377\\376tail\\n'"}`}}},
		openaitest.Reply{Text: "All done."},
	)
	out, stderr, code := e.run(e.runArgs("--permission-mode", "bypassPermissions", "--output-format", "json", "use the tools")...)
	if code != 0 {
		t.Fatalf("exit %d, stderr: %s", code, stderr)
	}
	if res := parseRunResult(t, out); res.IsError || res.Result != "All done." {
		t.Errorf("result %+v from %s", res, out)
	}
	reqs := e.fake.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests, want 5", len(reqs))
	}
	results := toolMessages(reqs[4])
	if r := results["r1"]; len(r) > 256<<10+4096 || !strings.Contains(r, "offset") || !strings.Contains(r, "line 0000000") {
		t.Errorf("the capped Read result is %d bytes (want <= ~256 KB naming the offset to read on); its end: %q", len(r), tail(r, 300))
	}
	if r := results["r2"]; !strings.Contains(r, "c1") || !strings.Contains(r, "print('old')") || !strings.Contains(r, "old output") {
		t.Errorf("Read of the notebook: %q", r)
	}
	got := e.read("nb.ipynb")
	if !strings.Contains(got, `print('new')`) || strings.Contains(got, "old output") || strings.Contains(got, `"execution_count": 3`) {
		t.Errorf("the notebook after NotebookEdit:\n%s", got)
	}
	if r := results["b1"]; !utf8.ValidString(r) || strings.ContainsRune(r, 0) || !strings.Contains(r, "head") || !strings.Contains(r, "tail") || !strings.Contains(r, `\x00`) {
		t.Errorf("the Bash result of binary output: %q", r)
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}
