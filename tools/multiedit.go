package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

//go:embed multiedit.md
var multiEditDescription string

// MultiEditInput is the input of the MultiEdit tool, as Claude Code's MultiEdit.
type MultiEditInput struct {
	FilePath string          `json:"file_path"`
	Edits    []MultiEditItem `json:"edits"`
}

// MultiEditItem is one edit of a MultiEdit call, Edit's fields without the path.
type MultiEditItem struct {
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all,omitempty"`
}

const multiEditSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "minLength": 1, "description": "Path of the file to change: absolute, or relative to the workspace root."},
    "edits": {
      "type": "array",
      "minItems": 1,
      "description": "Edits applied in order, each to the result of the one before; all succeed or none is applied.",
      "items": {
        "type": "object",
        "properties": {
          "old_string": {"type": "string", "description": "The exact text to replace (empty only in the first edit, to create a new file)."},
          "new_string": {"type": "string", "description": "The text to put in its place (must differ from old_string)."},
          "replace_all": {"type": "boolean", "default": false, "description": "Replace every occurrence of old_string instead of requiring exactly one."}
        },
        "required": ["old_string", "new_string"],
        "additionalProperties": false
      }
    }
  },
  "required": ["file_path", "edits"],
  "additionalProperties": false
}`

// MultiEdit makes several exact-string edits to one file in one call, as
// Claude Code's MultiEdit: the edits are applied in order, each to the result
// of the previous, with Edit's matching (applyEditLoose: exact, then the
// indentation fallback); if any fails nothing is written. The file must have
// been read in this session; a first edit with an empty old_string creates a
// file that does not exist. One approval, one diff.
type MultiEdit struct{}

// Spec describes MultiEdit: KindEdit, not concurrency-safe.
func (MultiEdit) Spec() Spec {
	return Spec{Name: "MultiEdit", Description: multiEditDescription, Schema: json.RawMessage(multiEditSchema), Kind: KindEdit}
}

// Summary returns "MultiEdit PATH (N edits)".
func (MultiEdit) Summary(in MultiEditInput) string {
	return fmt.Sprintf("MultiEdit %s (%d %s)", summaryPath(in.FilePath), len(in.Edits), plural(len(in.Edits), "edit", "edits"))
}

// Paths returns the resolved path of the file.
func (MultiEdit) Paths(env *Env, in MultiEditInput) []string {
	return pathsOf(env, in.FilePath)
}

// Preview returns the diff of all the edits together, computed as Run does.
func (MultiEdit) Preview(env *Env, in MultiEditInput) (string, error) {
	c, _, err := planMultiEdit(env, in)
	if err != nil {
		return "", err
	}
	return c.preview(env), nil
}

// Run applies every edit and replaces the file once.
func (MultiEdit) Run(ctx context.Context, env *Env, in MultiEditInput) (Result, error) {
	c, notes, err := planMultiEdit(env, in)
	if err != nil {
		return Result{}, err
	}
	if err := c.apply(env); err != nil {
		return Result{}, err
	}
	diff := c.diff()
	verb := "Applied"
	if !c.existed {
		verb = "Created the file with"
	}
	msg := fmt.Sprintf("%s %d %s to %s.", verb, len(in.Edits), plural(len(in.Edits), "edit", "edits"), c.shown)
	for _, n := range notes {
		msg += " " + n
	}
	return Result{Output: msg + "\n\n" + capDiff(diff), Diff: diff}, nil
}

// planMultiEdit works out a MultiEdit call without writing. The notes are the
// indentation fallback's remarks, one per edit that used it.
func planMultiEdit(env *Env, in MultiEditInput) (fileChange, []string, error) {
	abs, err := filePath(env, in.FilePath)
	if err != nil {
		return fileChange{}, nil, err
	}
	if len(in.Edits) == 0 {
		return fileChange{}, nil, precondition(errors.New("edits must hold at least one edit"))
	}
	shown := displayPath(env, abs)
	old, perm, existed, err := currentForChange(env, abs, shown)
	if err != nil {
		return fileChange{}, nil, err
	}
	content := string(old)
	edits := in.Edits
	if !existed || strings.TrimPrefix(content, utf8BOM) == "" {
		if edits[0].OldString != "" {
			if !existed {
				return fileChange{}, nil, precondition(fmt.Errorf("File does not exist: %s (to create it, make the first edit's old_string empty)", shown))
			}
		} else {
			if strings.HasPrefix(content, utf8BOM) {
				content = utf8BOM + edits[0].NewString
			} else {
				content = edits[0].NewString
			}
			edits = edits[1:]
		}
	}
	var notes []string
	first := len(in.Edits) - len(edits)
	for i, e := range edits {
		n := first + i + 1
		if e.OldString == "" {
			return fileChange{}, nil, precondition(fmt.Errorf("edit %d: old_string is empty: only the first edit of a new file may have an empty old_string", n))
		}
		for _, prev := range in.Edits[first : first+i] {
			if prev.NewString != "" && strings.Contains(prev.NewString, e.OldString) {
				return fileChange{}, nil, precondition(fmt.Errorf("edit %d: Cannot edit file: old_string is a substring of a new_string from a previous edit.", n))
			}
		}
		updated, _, note, err := applyEditLoose(content, e.OldString, e.NewString, e.ReplaceAll)
		if err != nil {
			return fileChange{}, nil, precondition(fmt.Errorf("edit %d: %w", n, err))
		}
		if note != "" {
			notes = append(notes, fmt.Sprintf("Edit %d: %s", n, note))
		}
		content = updated
	}
	if existed && content == string(old) {
		return fileChange{}, nil, precondition(errors.New("No changes to make: the edits leave the file as it is."))
	}
	return fileChange{abs: abs, shown: shown, old: string(old), new: content, perm: perm, existed: existed}, notes, nil
}
