package tools

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

//go:embed notebookedit.md
var notebookEditDescription string

// NotebookEditInput is the input of NotebookEdit, as Claude Code's.
type NotebookEditInput struct {
	// NotebookPath is the notebook's path (absolute, or relative to the
	// workspace root).
	NotebookPath string `json:"notebook_path"`
	// CellID is the cell to replace or delete, or the one to insert after
	// ("" inserts at the start): its id, or "cell-N" (0-based) for a notebook
	// without ids.
	CellID string `json:"cell_id,omitempty"`
	// NewSource is the cell's new source (ignored by delete).
	NewSource string `json:"new_source"`
	// CellType is "code" or "markdown"; required by insert, the cell's own
	// type when empty with replace.
	CellType string `json:"cell_type,omitempty"`
	// EditMode is "replace" (the default), "insert" or "delete".
	EditMode string `json:"edit_mode,omitempty"`
}

const notebookEditSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "notebook_path": {"type": "string", "minLength": 1, "description": "The absolute path of the Jupyter notebook (.ipynb) to edit."},
    "cell_id": {"type": "string", "description": "The id of the cell to edit (as Read shows it). With edit_mode insert, the new cell goes after this one, or at the start when omitted."},
    "new_source": {"type": "string", "description": "The new source of the cell."},
    "cell_type": {"type": "string", "enum": ["code", "markdown"], "description": "The type of the cell. Defaults to the current type with replace; required with insert."},
    "edit_mode": {"type": "string", "enum": ["replace", "insert", "delete"], "description": "The kind of edit: replace (the default), insert or delete."}
  },
  "required": ["notebook_path", "new_source"],
  "additionalProperties": false
}`

// NotebookEdit edits one cell of a Jupyter notebook, as Claude Code's
// NotebookEdit: replace a cell's source (a code cell's outputs cleared and
// execution_count null), insert a cell after another, or delete one. The
// notebook must have been read in this session and be unchanged since (as
// Edit's files); the rest of the JSON is kept (key order, indent). Preview
// and Run share planNotebookEdit and the fileChange path of Edit and Write.
type NotebookEdit struct{}

// Spec describes NotebookEdit: KindEdit, not concurrency-safe.
func (NotebookEdit) Spec() Spec {
	return Spec{Name: "NotebookEdit", Description: notebookEditDescription, Schema: json.RawMessage(notebookEditSchema), Kind: KindEdit}
}

// Summary returns "NotebookEdit PATH (MODE CELL)".
func (NotebookEdit) Summary(in NotebookEditInput) string {
	mode := in.EditMode
	if mode == "" {
		mode = "replace"
	}
	s := "NotebookEdit " + summaryPath(in.NotebookPath) + " (" + mode
	if in.CellID != "" {
		s += " " + oneLine(in.CellID, 40)
	}
	return s + ")"
}

// Paths returns the resolved path of the notebook.
func (NotebookEdit) Paths(env *Env, in NotebookEditInput) []string {
	return pathsOf(env, in.NotebookPath)
}

// Preview returns the diff the call would make, computed as Run computes it.
func (NotebookEdit) Preview(env *Env, in NotebookEditInput) (string, error) {
	c, _, err := planNotebookEdit(env, in)
	if err != nil {
		return "", err
	}
	return c.preview(env), nil
}

// Run applies the edit (temp file + rename) and records the new state.
func (NotebookEdit) Run(ctx context.Context, env *Env, in NotebookEditInput) (Result, error) {
	c, msg, err := planNotebookEdit(env, in)
	if err != nil {
		return Result{}, err
	}
	if err := c.apply(env); err != nil {
		return Result{}, err
	}
	diff := c.diff()
	return Result{Output: msg + "\n\n" + capDiff(diff), Diff: diff}, nil
}

// planNotebookEdit works out a NotebookEdit call without writing: the path
// inside the workspace, the notebook read in this session and unchanged
// since, the cell found, the new JSON. msg is the result's first line.
func planNotebookEdit(env *Env, in NotebookEditInput) (fileChange, string, error) {
	mode := in.EditMode
	if mode == "" {
		mode = "replace"
	}
	if mode != "replace" && mode != "insert" && mode != "delete" {
		return fileChange{}, "", precondition(fmt.Errorf("edit_mode must be replace, insert or delete, got %q", in.EditMode))
	}
	if in.CellType != "" && in.CellType != "code" && in.CellType != "markdown" {
		return fileChange{}, "", precondition(fmt.Errorf("cell_type must be code or markdown, got %q", in.CellType))
	}
	abs, err := filePath(env, in.NotebookPath)
	if err != nil {
		return fileChange{}, "", err
	}
	shown := displayPath(env, abs)
	if !strings.EqualFold(filepath.Ext(abs), ".ipynb") {
		return fileChange{}, "", precondition(fmt.Errorf("%s is not a Jupyter notebook (.ipynb): use Edit for other files", shown))
	}
	raw, fi, existed, err := readExisting(env, abs, shown)
	if err != nil {
		return fileChange{}, "", err
	}
	if !existed {
		return fileChange{}, "", precondition(fmt.Errorf("Notebook does not exist: %s", shown))
	}
	if _, ok := env.Files.Lookup(abs); !ok {
		return fileChange{}, "", precondition(ErrNotRead)
	}
	if !env.Files.Unchanged(abs, raw) {
		return fileChange{}, "", precondition(ErrModifiedSinceRead)
	}
	nb, err := parseNotebook(raw)
	if err != nil {
		return fileChange{}, "", precondition(fmt.Errorf("%s: %w", shown, err))
	}
	msg, err := nb.edit(mode, in, env.ToolCallID+"\x00"+string(raw))
	if err != nil {
		return fileChange{}, "", precondition(err)
	}
	updated, err := nb.encode()
	if err != nil {
		return fileChange{}, "", err
	}
	return fileChange{abs: abs, shown: shown, old: string(raw), new: updated, perm: fi.Mode().Perm(), existed: true}, msg, nil
}

// edit applies one NotebookEdit to the parsed notebook and returns the
// result's message.
// seed makes a new cell's id (newCellID): the same call on the same notebook
// gets the same id in Preview and Run.
func (nb *notebook) edit(mode string, in NotebookEditInput, seed string) (string, error) {
	at := -1
	if in.CellID != "" {
		if at = nb.findCell(in.CellID); at < 0 {
			return "", fmt.Errorf("no cell with id %q in the notebook (Read it to see the cell ids)", in.CellID)
		}
	} else if mode != "insert" {
		return "", fmt.Errorf("cell_id is required with edit_mode %s", mode)
	}
	switch mode {
	case "delete":
		id := nb.cellID(at)
		nb.cells = append(nb.cells[:at], nb.cells[at+1:]...)
		return fmt.Sprintf("Deleted cell %s.", id), nil
	case "insert":
		if in.CellType == "" {
			return "", errors.New("cell_type is required with edit_mode insert")
		}
		cell := jsonObject{}
		cell.set("cell_type", in.CellType)
		if nb.minor >= 5 || nb.hasIDs() {
			cell.set("id", nb.newCellID(seed+"\x00"+in.NewSource))
		}
		cell.set("metadata", json.RawMessage("{}"))
		setCellSource(&cell, in.CellType, in.NewSource)
		nb.cells = append(nb.cells[:at+1], append([]jsonObject{cell}, nb.cells[at+1:]...)...)
		return fmt.Sprintf("Inserted cell %s (%s).", nb.cellID(at+1), in.CellType), nil
	}
	cell := nb.cells[at]
	typ := in.CellType
	if typ == "" {
		typ = cell.str("cell_type")
	}
	cell.set("cell_type", typ)
	setCellSource(&cell, typ, in.NewSource)
	nb.cells[at] = cell
	return fmt.Sprintf("Updated cell %s (%s).", nb.cellID(at), typ), nil
}

// setCellSource sets a cell's source; a code cell gets no outputs and a null
// execution_count, a markdown cell has neither member.
func setCellSource(cell *jsonObject, typ, source string) {
	cell.set("source", sourceLines(source))
	if typ == "code" {
		cell.set("execution_count", nil)
		cell.set("outputs", json.RawMessage("[]"))
		return
	}
	cell.del("execution_count")
	cell.del("outputs")
}

// hasIDs reports whether any cell has an id.
func (nb *notebook) hasIDs() bool {
	for _, c := range nb.cells {
		if c.str("id") != "" {
			return true
		}
	}
	return false
}

// newCellID is a cell id (8 hex digits, as nbformat 4.5 makes them) derived
// from seed, so that Preview and Run of one call agree, and unlike every id
// in the notebook.
func (nb *notebook) newCellID(seed string) string {
	for n := 0; ; n++ {
		sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d", seed, n)))
		id := hex.EncodeToString(sum[:4])
		if nb.findCell(id) < 0 {
			return id
		}
	}
}
