package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
)

//go:embed edit.md
var editDescription string

// maxDiffInOutput caps the diff echoed to the model in Edit's output; the full diff
// is always in Result.Diff.
const maxDiffInOutput = 10000

// EditInput is the input of the Edit tool, as Claude Code's Edit.
type EditInput struct {
	FilePath   string `json:"file_path"`
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all,omitempty"`
}

const editSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "minLength": 1, "description": "Path of the file to change: absolute, or relative to the workspace root."},
    "old_string": {"type": "string", "description": "The exact text to replace. Empty only to create a new file."},
    "new_string": {"type": "string", "description": "The text to put in its place (must differ from old_string)."},
    "replace_all": {"type": "boolean", "default": false, "description": "Replace every occurrence of old_string instead of requiring exactly one."}
  },
  "required": ["file_path", "old_string", "new_string"],
  "additionalProperties": false
}`

// Edit is the exact-string replacement tool, as Claude Code's Edit. The matching
// rules are applyEdit's (unique match unless replace_all, CRLF and BOM kept); the
// file must have been read in this session, and a file changed on disk since that
// read is edited only if old_string still matches exactly once. The result carries
// a unified diff.
type Edit struct{}

// Spec describes Edit: KindEdit, not concurrency-safe.
func (Edit) Spec() Spec {
	return Spec{Name: "Edit", Description: editDescription, Schema: json.RawMessage(editSchema), Kind: KindEdit}
}

// Summary returns "Edit PATH".
func (Edit) Summary(in EditInput) string {
	return "Edit " + summaryPath(in.FilePath)
}

// Paths returns the resolved path of the file.
func (Edit) Paths(env *Env, in EditInput) []string {
	return pathsOf(env, in.FilePath)
}

// Preview returns the unified diff the call would make, computed exactly as Run
// computes it (the same matcher, path guard and read-before-change rules) and
// writing nothing; the error is the one Run would return, marked (CannotSucceed)
// when it is one of the tool's own preconditions.
func (Edit) Preview(env *Env, in EditInput) (string, error) {
	c, err := planEdit(env, in)
	if err != nil {
		return "", err
	}
	return c.preview(env), nil
}

// Run applies the edit, replaces the file (temp file + rename, never through a
// hard link) and records its new state.
func (Edit) Run(ctx context.Context, env *Env, in EditInput) (Result, error) {
	c, err := planEdit(env, in)
	if err != nil {
		return Result{}, err
	}
	if err := c.apply(env); err != nil {
		return Result{}, err
	}
	diff := c.diff()
	if c.created {
		n := countLines(c.new)
		return Result{Output: fmt.Sprintf("Created %s (%d %s).", c.shown, n, plural(n, "line", "lines")), Diff: diff}, nil
	}
	noun := "occurrence"
	if c.replaced != 1 {
		noun += "s"
	}
	msg := fmt.Sprintf("Edited %s: replaced %d %s.", c.shown, c.replaced, noun)
	if c.changedOnDisk {
		msg += " (The file had changed on disk since it was read; old_string still matched once.)"
	}
	if c.note != "" {
		msg += " Note: " + c.note
	}
	return Result{Output: msg + "\n\n" + capDiff(diff), Diff: diff}, nil
}

// editChange is the change an Edit call would make, with what its result
// message says: how many occurrences were replaced, whether the file had
// changed on disk since it was read, and whether an empty old_string created
// (or filled an empty) file.
type editChange struct {
	fileChange
	replaced      int
	changedOnDisk bool
	created       bool
	note          string // the indentation fallback's remark, "" when the match was exact
}

// planEdit works out an Edit call without writing: it checks env, resolves
// file_path inside the workspace, reads the file and applies
// old_string -> new_string in memory (applyEditLoose: exact, then the
// indentation fallback). The file must have been read
// in this session; one changed on disk since that read is edited only if
// old_string still matches exactly once.
func planEdit(env *Env, in EditInput) (editChange, error) {
	abs, err := filePath(env, in.FilePath)
	if err != nil {
		return editChange{}, err
	}
	shown := displayPath(env, abs)
	if in.OldString == "" {
		return planCreateWithEdit(env, abs, shown, in.NewString)
	}

	raw, fi, existed, err := readExisting(env, abs, shown)
	if err != nil {
		return editChange{}, err
	}
	if !existed {
		return editChange{}, precondition(fmt.Errorf("File does not exist: %s (to create it, use Write or an empty old_string)", shown))
	}
	if _, ok := env.Files.Lookup(abs); !ok {
		return editChange{}, precondition(ErrNotRead)
	}
	changedOnDisk := !env.Files.Unchanged(abs, raw)

	updated, n, note, err := applyEditLoose(string(raw), in.OldString, in.NewString, in.ReplaceAll)
	if changedOnDisk && (err != nil || n != 1) {
		if err != nil {
			return editChange{}, precondition(fmt.Errorf("%w %v", ErrModifiedSinceRead, err))
		}
		return editChange{}, precondition(ErrModifiedSinceRead)
	}
	if err != nil {
		return editChange{}, precondition(err) // applyEdit: not found, not unique, nothing to change
	}
	return editChange{
		fileChange:    fileChange{abs: abs, shown: shown, old: string(raw), new: updated, perm: fi.Mode().Perm(), existed: true},
		replaced:      n,
		changedOnDisk: changedOnDisk,
		note:          note,
	}, nil
}

// planCreateWithEdit handles an empty old_string: create a file that does not
// exist, or fill one that is empty (which must have been read, like any
// existing file; a BOM it holds is kept).
func planCreateWithEdit(env *Env, abs, shown, content string) (editChange, error) {
	old, perm, existed, err := currentForChange(env, abs, shown)
	if err != nil {
		return editChange{}, err
	}
	if existed && strings.TrimPrefix(string(old), utf8BOM) != "" {
		return editChange{}, precondition(fmt.Errorf("old_string is empty but %s already has content: give the exact text to replace, or use Write to replace the whole file", shown))
	}
	if content == "" {
		return editChange{}, precondition(errSameStrings)
	}
	if existed && strings.HasPrefix(string(old), utf8BOM) {
		content = utf8BOM + content
	}
	return editChange{
		fileChange: fileChange{abs: abs, shown: shown, old: string(old), new: content, perm: perm, existed: existed},
		created:    true,
	}, nil
}

// capDiff shortens a diff for the model's eyes, cutting at a line boundary.
func capDiff(diff string) string {
	if len(diff) <= maxDiffInOutput {
		return diff
	}
	cut := strings.LastIndexByte(diff[:maxDiffInOutput], '\n') + 1
	rest := strings.Count(diff[cut:], "\n")
	return diff[:cut] + fmt.Sprintf("... (diff truncated: %d more lines)\n", rest)
}
