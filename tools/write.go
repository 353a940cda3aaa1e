package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

//go:embed write.md
var writeDescription string

// Errors shared by Write and Edit, worded as Claude Code's.
var (
	// ErrNotRead refuses a change to an existing file the session has not read.
	ErrNotRead = errors.New("File has not been read yet. Read it first before writing to it.")
	// ErrModifiedSinceRead refuses a change to a file that changed on disk after
	// the session read it.
	ErrModifiedSinceRead = errors.New("File has been modified since it was read (by the user or another program). Read it again before changing it.")
)

// WriteInput is the input of the Write tool, as Claude Code's Write.
type WriteInput struct {
	FilePath string `json:"file_path"`
	Content  string `json:"content"`
}

const writeSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "minLength": 1, "description": "Path of the file to write: absolute, or relative to the workspace root."},
    "content": {"type": "string", "description": "The complete new content of the file."}
  },
  "required": ["file_path", "content"],
  "additionalProperties": false
}`

// Write is the file-writing tool, as Claude Code's Write: it creates the file (and
// its parent directories) or replaces it. Replacing requires a Read of the file in
// this session (ErrNotRead) with the file unchanged since (ErrModifiedSinceRead).
// The result carries a unified diff, from /dev/null for a new file.
type Write struct{}

// Spec describes Write: KindEdit, not concurrency-safe.
func (Write) Spec() Spec {
	return Spec{Name: "Write", Description: writeDescription, Schema: json.RawMessage(writeSchema), Kind: KindEdit}
}

// Summary returns "Write PATH".
func (Write) Summary(in WriteInput) string {
	return "Write " + summaryPath(in.FilePath)
}

// Paths returns the resolved path of the file.
func (Write) Paths(env *Env, in WriteInput) []string {
	return pathsOf(env, in.FilePath)
}

// Preview returns the unified diff the call would make, computed exactly as Run
// computes it (the same path guard and read-before-change rules) and writing
// nothing; the error is the one Run would return, marked (CannotSucceed) when it
// is one of the tool's own preconditions.
func (Write) Preview(env *Env, in WriteInput) (string, error) {
	c, err := planWrite(env, in)
	if err != nil {
		return "", err
	}
	return c.preview(env), nil
}

// Run writes the file and records its new state in the session's FileState.
func (Write) Run(ctx context.Context, env *Env, in WriteInput) (Result, error) {
	c, err := planWrite(env, in)
	if err != nil {
		return Result{}, err
	}
	if err := c.apply(env); err != nil {
		return Result{}, err
	}
	diff := c.diff()
	added, removed := DiffStat(diff)
	var msg string
	switch {
	case !c.existed:
		msg = fmt.Sprintf("Created %s (%d %s).", c.shown, countLines(c.new), plural(countLines(c.new), "line", "lines"))
	case diff == "":
		msg = fmt.Sprintf("%s is unchanged: the content was identical.", c.shown)
	default:
		msg = fmt.Sprintf("Updated %s (+%d -%d lines).", c.shown, added, removed)
	}
	return Result{Output: msg, Diff: diff}, nil
}

// planWrite works out a Write call without writing: it checks env, resolves
// file_path inside the workspace and reads the current file
// under the read-before-change rule (currentForChange).
func planWrite(env *Env, in WriteInput) (fileChange, error) {
	abs, err := filePath(env, in.FilePath)
	if err != nil {
		return fileChange{}, err
	}
	shown := displayPath(env, abs)
	old, perm, existed, err := currentForChange(env, abs, shown)
	if err != nil {
		return fileChange{}, err
	}
	return fileChange{abs: abs, shown: shown, old: string(old), new: in.Content, perm: perm, existed: existed}, nil
}

// currentForChange returns the current bytes and permissions of the file a Write
// or Edit is about to change, after checking the read-before-write rule. For a
// file that does not exist it returns existed false and mode 0644.
func currentForChange(env *Env, abs, shown string) (old []byte, perm fs.FileMode, existed bool, err error) {
	old, fi, existed, err := readExisting(env, abs, shown)
	if err != nil || !existed {
		return nil, 0o644, false, err
	}
	if _, ok := env.Files.Lookup(abs); !ok {
		return nil, 0, true, precondition(ErrNotRead)
	}
	if !env.Files.Unchanged(abs, old) {
		return nil, 0, true, precondition(ErrModifiedSinceRead)
	}
	return old, fi.Mode().Perm(), true, nil
}

// countLines counts lines the way an editor shows them: a final line without a
// newline counts, an empty text has none.
func countLines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}
