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

//go:embed applypatch.md
var applyPatchDescription string

// ApplyPatchInput is the input of the apply_patch tool, as Codex's function
// form of it: the whole patch text in one string.
type ApplyPatchInput struct {
	Input string `json:"input"`
}

const applyPatchSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "input": {"type": "string", "description": "The entire contents of the apply_patch command: *** Begin Patch ... *** End Patch."}
  },
  "required": ["input"],
  "additionalProperties": false
}`

// ApplyPatch is Codex's apply_patch tool: one patch adds, deletes, updates and
// moves files (the format of parsePatch, the matching of updateContent). Unlike
// Codex it is all or nothing: every hunk is worked out against the files (and
// against the hunks before it) before anything is written, and a hunk that
// fails leaves every file as it was. As Codex, an Add over an existing file and
// a Move onto one replace it, and no Read is required first (the context lines
// are the check). Each path goes through the workspace guard and, as Paths,
// through the permission policy as an Edit of it would; all the files'
// changes are one approval with one diff.
type ApplyPatch struct{}

// Spec describes apply_patch: KindEdit, not concurrency-safe.
func (ApplyPatch) Spec() Spec {
	return Spec{Name: "apply_patch", Description: applyPatchDescription, Schema: json.RawMessage(applyPatchSchema), Kind: KindEdit}
}

// Summary returns "apply_patch PATH, PATH" (the first three files the patch
// names, then "+N more"); "apply_patch" for a patch that does not parse.
func (ApplyPatch) Summary(in ApplyPatchInput) string {
	hunks, err := parsePatch(in.Input)
	if err != nil || len(hunks) == 0 {
		return "apply_patch"
	}
	var names []string
	for _, h := range hunks {
		p := h.path
		if h.movePath != "" {
			p += " -> " + h.movePath
		}
		names = append(names, summaryPath(p))
	}
	if len(names) > 3 {
		return fmt.Sprintf("apply_patch %s (+%d more)", strings.Join(names[:3], ", "), len(names)-3)
	}
	return "apply_patch " + strings.Join(names, ", ")
}

// Paths returns the real location of every path the patch names, Move
// targets included, in the patch's order; nil for a patch that does not
// parse (its Run changes nothing).
func (ApplyPatch) Paths(env *Env, in ApplyPatchInput) []string {
	hunks, err := parsePatch(in.Input)
	if err != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, h := range hunks {
		for _, p := range []string{h.path, h.movePath} {
			for _, abs := range pathsOf(env, p) {
				if !seen[abs] {
					seen[abs] = true
					out = append(out, abs)
				}
			}
		}
	}
	return out
}

// Preview returns the diff of every file the patch would change, worked out
// exactly as Run does and writing nothing.
func (ApplyPatch) Preview(env *Env, in ApplyPatchInput) (string, error) {
	p, err := planPatch(env, in)
	if err != nil {
		return "", err
	}
	env.Files.recordPreview(env.ToolCallID, p.fingerprint())
	return p.diff(), nil
}

// Run applies the patch: the new and changed files are written (temp file +
// rename), then the deleted and moved-away ones removed. The output is
// Codex's summary ("Success. Updated the following files:" and a line
// "A|M|D PATH" per hunk) followed by the diff.
func (ApplyPatch) Run(ctx context.Context, env *Env, in ApplyPatchInput) (Result, error) {
	p, err := planPatch(env, in)
	if err != nil {
		return Result{}, err
	}
	if env.ApprovedPreview && !env.Files.previewed(env.ToolCallID, p.fingerprint()) {
		return Result{}, fmt.Errorf("%w: nothing was written; read the files again and propose the patch anew", ErrChangedSinceApproval)
	}
	for _, f := range p.files {
		if f.exists && (!f.existed || f.cur != f.old) {
			if err := writeFile(env, f.abs, []byte(f.cur), f.perm); err != nil {
				return Result{}, fmt.Errorf("Failed to write file %s: %w", f.shown, err)
			}
			recordWritten(env, f.abs, []byte(f.cur))
		}
	}
	for _, f := range p.files {
		if !f.exists && f.existed {
			if err := env.Workspace.RemoveFile(f.abs); err != nil {
				return Result{}, fmt.Errorf("Failed to delete file %s: %w", f.shown, err)
			}
			env.Files.Forget(f.abs)
		}
	}
	diff := p.diff()
	out := "Success. Updated the following files:\n" + strings.Join(p.summary, "\n")
	if diff != "" {
		out += "\n\n" + capDiff(diff)
	}
	return Result{Output: out, Diff: diff}, nil
}

// patchFile is one file a patch touches: its bytes before (old, existed) and
// after (cur, exists) every hunk so far.
type patchFile struct {
	abs, shown string
	old, cur   string
	existed    bool
	exists     bool
	isDir      bool
	perm       fs.FileMode
}

// patchPlan is what a patch would do, worked out without writing: the files
// in the order the patch first names them and Codex's summary lines.
type patchPlan struct {
	files   []*patchFile
	byAbs   map[string]*patchFile
	summary []string
}

// planPatch parses the patch and applies its hunks in order to the files as
// they are on disk (and as the hunks before left them), writing nothing. A
// parse error, an empty patch, a missing file to update or delete, a
// directory, or a chunk whose lines are not found is a precondition error
// (the call is not asked); the workspace guard's errors are returned as they
// are.
func planPatch(env *Env, in ApplyPatchInput) (*patchPlan, error) {
	if err := checkFileEnv(env); err != nil {
		return nil, err
	}
	hunks, err := parsePatch(in.Input)
	if err != nil {
		return nil, precondition(err)
	}
	if len(hunks) == 0 {
		return nil, precondition(errors.New("No files were modified."))
	}
	p := &patchPlan{byAbs: map[string]*patchFile{}}
	for _, h := range hunks {
		f, err := p.file(env, h.path)
		if err != nil {
			return nil, err
		}
		switch h.kind {
		case hunkAdd:
			if f.isDir {
				return nil, precondition(fmt.Errorf("Failed to write file %s: it is a directory", h.path))
			}
			f.cur, f.exists = h.contents, true
			p.summary = append(p.summary, "A "+f.shown)
		case hunkDelete:
			if err := f.mustExist("Failed to delete file", h.path); err != nil {
				return nil, err
			}
			f.cur, f.exists = "", false
			p.summary = append(p.summary, "D "+f.shown)
		case hunkUpdate:
			if err := f.mustExist("Failed to read file to update", h.path); err != nil {
				return nil, err
			}
			updated, err := updateContent(f.cur, h.chunks, h.path)
			if err != nil {
				return nil, precondition(err)
			}
			if h.movePath == "" {
				f.cur = updated
				p.summary = append(p.summary, "M "+f.shown)
				continue
			}
			dest, err := p.file(env, h.movePath)
			if err != nil {
				return nil, err
			}
			if dest.isDir {
				return nil, precondition(fmt.Errorf("Failed to write file %s: it is a directory", h.movePath))
			}
			f.cur, f.exists = "", false
			dest.cur, dest.exists = updated, true
			if dest != f && !dest.existed {
				dest.perm = f.perm
			}
			p.summary = append(p.summary, "M "+dest.shown)
		}
	}
	return p, nil
}

// file returns the plan's record of the file at path (as the patch writes
// it), reading it through the workspace guard on first use.
func (p *patchPlan) file(env *Env, path string) (*patchFile, error) {
	abs, err := filePath(env, path)
	if err != nil {
		return nil, err
	}
	if f, ok := p.byAbs[abs]; ok {
		return f, nil
	}
	f := &patchFile{abs: abs, shown: displayPath(env, abs), perm: 0o644}
	raw, fi, existed, rerr := readExisting(env, abs, f.shown)
	switch {
	case rerr != nil && existed:
		f.isDir = true // a directory or another non-regular file: never written, never removed
	case rerr != nil:
		return nil, rerr
	case existed:
		f.old, f.cur, f.existed, f.exists, f.perm = string(raw), string(raw), true, true, fi.Mode().Perm()
	}
	p.byAbs[abs] = f
	p.files = append(p.files, f)
	return f, nil
}

// mustExist is the error of a Delete or Update of a file that is not there
// (or is a directory), worded as Codex's: "WHAT PATH: REASON".
func (f *patchFile) mustExist(what, path string) error {
	switch {
	case f.isDir:
		return precondition(fmt.Errorf("%s %s: it is a directory, not a file", what, path))
	case !f.exists:
		return precondition(fmt.Errorf("%s %s: No such file or directory (os error 2)", what, path))
	}
	return nil
}

// fingerprint identifies the plan's whole change exactly: every file, whether
// it exists before and after, and the SHA-256 of its bytes before and after.
func (p *patchPlan) fingerprint() string {
	var b strings.Builder
	for _, f := range p.files {
		fmt.Fprintf(&b, "%s\x00%t\x00%t\x00%s\x00%s\x01", f.abs, f.existed, f.exists,
			HashContent([]byte(f.old)), HashContent([]byte(f.cur)))
	}
	return b.String()
}

// diff is the unified diff of every file the plan changes, one after the
// other: from /dev/null for a new file, to /dev/null for a removed one (a
// Move is its source removed and its target written).
func (p *patchPlan) diff() string {
	var b strings.Builder
	for _, f := range p.files {
		oldLabel, newLabel := "a/"+f.shown, "b/"+f.shown
		oldText, newText := f.old, f.cur
		switch {
		case f.isDir, !f.existed && !f.exists:
			continue
		case !f.existed:
			oldLabel = "/dev/null"
		case !f.exists:
			newLabel, newText = "/dev/null", ""
		}
		d := UnifiedDiff(oldLabel, newLabel, oldText, newText)
		if d == "" && f.existed != f.exists {
			d = "--- " + oldLabel + "\n+++ " + newLabel + "\n" // an empty file added or removed
		}
		b.WriteString(d)
	}
	return b.String()
}
