package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"pincer/core/config"
)

//go:embed configedit.md
var configEditDescription string

// ConfigEditName is the ConfigEdit tool's name.
const ConfigEditName = "ConfigEdit"

// ConfigEditInput is the input of the ConfigEdit tool: an exact replacement in
// one of pincer's config files, as Edit's.
type ConfigEditInput struct {
	File      string `json:"file"`
	OldString string `json:"old_string"`
	NewString string `json:"new_string"`
}

const configEditSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "file": {"type": "string", "minLength": 1, "description": "Absolute path of the config file, one of those listed in the prompt."},
    "old_string": {"type": "string", "description": "The exact text to replace (once in the file). Empty only to create the file."},
    "new_string": {"type": "string", "description": "The text to put in its place."}
  },
  "required": ["file", "old_string", "new_string"],
  "additionalProperties": false
}`

// ConfigEdit edits pincer's own configuration files — the user's config.toml
// and ~/.claude/settings.json, outside the workspace, and the project's
// .pincer/ and .claude/ settings — for the /update-config turn that offers it
// (it is in no registry: core/app hands it to that turn alone,
// agent.TurnInput.Tools). Its Spec asks always (Spec.AskAlways): every call waits
// for a person with its diff (Preview), in every mode, whatever rules or hooks
// say. It writes with config.Edit (the one config writer: lock, re-read,
// temp + rename, never through a link), only a file listed in Files, only when
// the file is a regular file or absent, a project file only when no symlink or
// second hard link leads it elsewhere; with Env.ApprovedPreview, only the change
// previewed. After writing, Check reads the file back and its error (the file
// no longer parses, FILE:LINE) is reported in the result.
type ConfigEdit struct {
	// Files are the absolute paths ConfigEdit may write.
	Files []string
	// Check reads path back after a write and returns why it does not parse
	// (nil: it parses). nil checks nothing.
	Check func(path string) error
}

// Spec describes ConfigEdit: KindEdit, AskAlways.
func (ConfigEdit) Spec() Spec {
	return Spec{Name: ConfigEditName, Description: configEditDescription, Schema: json.RawMessage(configEditSchema),
		Kind: KindEdit, AskAlways: true}
}

// Summary returns "ConfigEdit PATH".
func (ConfigEdit) Summary(in ConfigEditInput) string { return ConfigEditName + " " + in.File }

// Paths returns the file, cleaned (the permission engine resolves its links).
func (c ConfigEdit) Paths(_ *Env, in ConfigEditInput) []string {
	if !filepath.IsAbs(in.File) {
		return nil
	}
	return []string{filepath.Clean(in.File)}
}

// Preview returns the diff the call would make now, writing nothing.
func (c ConfigEdit) Preview(env *Env, in ConfigEditInput) (string, error) {
	ch, err := c.plan(env, in)
	if err != nil {
		return "", err
	}
	return ch.preview(env), nil
}

// Run writes the change through config.Edit, re-planned inside its lock, and
// reports whether the file still parses.
func (c ConfigEdit) Run(_ context.Context, env *Env, in ConfigEditInput) (Result, error) {
	if err := c.allowed(env, in.File); err != nil { // before config.Edit reads it: a FIFO would block the read
		return Result{}, err
	}
	var done fileChange
	err := config.Edit(filepath.Clean(in.File), 0o600, func(old []byte) ([]byte, error) {
		ch, err := c.planFrom(env, in, old, old != nil)
		if err != nil {
			return nil, err
		}
		if env.ApprovedPreview && !env.Files.previewed(env.ToolCallID, ch.fingerprint()) {
			return nil, fmt.Errorf("%s: %w: nothing was written; propose the edit anew", ch.shown, ErrChangedSinceApproval)
		}
		done = ch
		return []byte(ch.new), nil
	})
	if err != nil {
		return Result{}, err
	}
	diff := done.diff()
	out := fmt.Sprintf("Edited %s.", done.shown)
	if !done.existed {
		out = fmt.Sprintf("Created %s.", done.shown)
	}
	if c.Check != nil {
		if cerr := c.Check(done.abs); cerr != nil {
			out += "\n\nThe file NO LONGER PARSES, so pincer will not use it (a broken project file denies every tool): " +
				cerr.Error() + "\nFix it now with another ConfigEdit call."
			return Result{Output: out + "\n\n" + capDiff(diff), Diff: diff, IsError: true}, nil
		}
		out += " It parses."
	}
	return Result{Output: out + "\n\n" + capDiff(diff), Diff: diff}, nil
}

// plan checks the call and works out its change from the file as it is now.
func (c ConfigEdit) plan(env *Env, in ConfigEditInput) (fileChange, error) {
	if err := c.allowed(env, in.File); err != nil {
		return fileChange{}, err
	}
	old, err := os.ReadFile(filepath.Clean(in.File))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fileChange{}, err
	}
	return c.planFrom(env, in, old, err == nil)
}

// planFrom applies old_string -> new_string to old (the file's bytes; existed
// false: there is no file).
func (c ConfigEdit) planFrom(env *Env, in ConfigEditInput, old []byte, existed bool) (fileChange, error) {
	if err := c.allowed(env, in.File); err != nil {
		return fileChange{}, err
	}
	abs := filepath.Clean(in.File)
	ch := fileChange{abs: abs, shown: abs, old: string(old), perm: 0o600, existed: existed}
	if in.OldString == "" {
		if strings.TrimSpace(string(old)) != "" {
			return fileChange{}, precondition(fmt.Errorf("old_string is empty but %s already has content: give the exact text to replace", abs))
		}
		if in.NewString == "" {
			return fileChange{}, precondition(errSameStrings)
		}
		ch.new = in.NewString
		return ch, nil
	}
	if !existed {
		return fileChange{}, precondition(fmt.Errorf("%s does not exist: create it with an empty old_string", abs))
	}
	updated, _, err := applyEdit(string(old), in.OldString, in.NewString, false)
	if err != nil {
		return fileChange{}, precondition(err)
	}
	ch.new = updated
	return ch, nil
}

// allowed checks that path is one of Files and a regular file or absent, and
// that a file inside the workspace (a project file, untrusted) is itself:
// neither a symlink anywhere on its way nor a file with a second hard link.
func (c ConfigEdit) allowed(env *Env, path string) error {
	if !filepath.IsAbs(path) {
		return precondition(fmt.Errorf("file must be an absolute path, one of: %s", strings.Join(c.Files, ", ")))
	}
	abs := filepath.Clean(path)
	if !slices.Contains(c.Files, abs) {
		return precondition(fmt.Errorf("%s is not one of pincer's config files: %s", abs, strings.Join(c.Files, ", ")))
	}
	fi, err := os.Lstat(abs)
	switch {
	case err == nil && fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symlink: not edited", abs)
	case err == nil && !fi.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file (%s): not edited", abs, fi.Mode().Type())
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return err
	}
	if env != nil && env.Workspace != nil && env.Workspace.Contains(abs) {
		if real, err := env.Workspace.Real(abs); err != nil || real != abs {
			return fmt.Errorf("%s leads elsewhere through a symlink: not edited", abs)
		}
		if env.Workspace.HardLinked(abs) {
			return fmt.Errorf("%s has another hard link: not edited", abs)
		}
	}
	return nil
}
