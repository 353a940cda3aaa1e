package tools

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

//go:embed read.md
var readDescription string

// Read limits.
const (
	// ReadDefaultLimit is how many lines Read returns when no limit is given.
	ReadDefaultLimit = 2000
	// ReadMaxLineChars is the length (in characters) past which a line is cut.
	ReadMaxLineChars = 2000
	// ReadMaxBytes is the largest file Read accepts (64 MiB).
	ReadMaxBytes = 64 << 20
	// ReadMaxResultBytes is the most a Read result holds (256 KiB): past it the
	// result ends at the last whole line that fits, with the offset to read on.
	// A smaller context window lowers it (ReadResultCap).
	ReadMaxResultBytes = 256 << 10
	// readMinResultBytes is the least ReadResultCap allows however small the
	// window, so that a read always makes progress.
	readMinResultBytes = 16 << 10
	// binarySniffBytes is how much of a file is checked for NUL bytes and
	// invalid UTF-8.
	binarySniffBytes = 8192
)

// readCapNoticeRoom is the room kept under the cap for the notice that ends a
// cut result.
const readCapNoticeRoom = 256

// lineTruncatedMarker ends a line cut at ReadMaxLineChars.
const lineTruncatedMarker = "... [line truncated]"

// utf8BOM is the byte order mark some editors put at the start of UTF-8 files.
const utf8BOM = "\uFEFF"

// ReadInput is the input of the Read tool, as Claude Code's Read.
type ReadInput struct {
	FilePath string `json:"file_path"`
	// Offset is the 1-based line number to start at; 0 means 1.
	Offset int `json:"offset,omitempty"`
	// Limit is the number of lines to return; 0 means ReadDefaultLimit.
	Limit int `json:"limit,omitempty"`
}

const readSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "minLength": 1, "description": "Path of the file to read: absolute, or relative to the workspace root."},
    "offset": {"type": "integer", "minimum": 0, "description": "1-based line number to start reading at. Only needed when the file is too long to read at once."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 100000, "description": "Number of lines to read (default 2000)."}
  },
  "required": ["file_path"],
  "additionalProperties": false
}`

// Read is the file-reading tool, as Claude Code's Read: numbered lines in the
// format "%6d\t%s" (cat -n style), a window of lines chosen by offset and limit,
// binary files and directories refused; a Jupyter notebook (.ipynb, nbformat
// 4) is shown as its cells (renderNotebook), numbered and capped likewise. A
// successful read is recorded in the
// session's FileState, which Write and Edit require.
type Read struct{}

// Spec describes Read: KindRead, concurrency-safe (reads may run in parallel).
func (Read) Spec() Spec {
	return Spec{Name: "Read", Description: readDescription, Schema: json.RawMessage(readSchema), Kind: KindRead, ConcurrencySafe: true}
}

// Summary returns "Read PATH", with the line window when one was asked for.
func (Read) Summary(in ReadInput) string {
	s := "Read " + summaryPath(in.FilePath)
	switch {
	case in.Offset > 0 && in.Limit > 0:
		s += fmt.Sprintf(" (lines %d-%d)", in.Offset, in.Offset+in.Limit-1)
	case in.Offset > 0:
		s += fmt.Sprintf(" (from line %d)", in.Offset)
	case in.Limit > 0:
		s += fmt.Sprintf(" (lines 1-%d)", in.Limit)
	}
	return s
}

// Paths returns the resolved path of the file.
func (Read) Paths(env *Env, in ReadInput) []string {
	return pathsOf(env, in.FilePath)
}

// Run reads the file. Errors: a path outside the workspace (unless the
// permission layer approved reading it for this call: FileState.GrantOutside),
// a missing file, a directory, a file over ReadMaxBytes, a binary file.
func (Read) Run(ctx context.Context, env *Env, in ReadInput) (Result, error) {
	abs, outside, err := readPath(env, in.FilePath)
	if err != nil {
		return Result{}, err
	}
	if in.Offset < 0 || in.Limit < 0 {
		return Result{}, errors.New("offset and limit must not be negative")
	}
	content, fi, err := readRegularFile(env, abs, displayPath(env, abs), outside)
	if err != nil {
		return Result{}, err
	}
	if looksBinary(content) {
		return Result{}, fmt.Errorf("Cannot read binary file: %s (use Bash with a suitable tool, such as xxd or file, to inspect it)", displayPath(env, abs))
	}
	env.Files.Record(abs, HashContent(content), fi.ModTime())
	if strings.EqualFold(filepath.Ext(abs), ".ipynb") {
		if nb, err := parseNotebook(content); err == nil {
			content = []byte(renderNotebook(nb))
		}
	}
	return Result{Output: formatLines(content, in.Offset, in.Limit, ReadResultCap(env.ContextWindow))}, nil
}

// ReadResultCap is the most bytes a Read result may hold with a context window
// of window tokens (0: unknown): ReadMaxResultBytes, or a quarter of the window
// at about four bytes a token (window bytes) when that is less, but never under
// readMinResultBytes. Tokens are estimated as the agent estimates them.
func ReadResultCap(window int64) int {
	limit := int64(ReadMaxResultBytes)
	if window > 0 {
		limit = min(limit, max(window, readMinResultBytes))
	}
	return int(limit)
}

// readPath is filePath for Read, which may also read a path outside the
// workspace that the permission layer approved for this very call: outside
// is then true and abs is that path's real location.
func readPath(env *Env, p string) (abs string, outside bool, err error) {
	abs, err = filePath(env, p)
	if err == nil {
		return abs, false, nil
	}
	real, ok := grantedOutside(env, p)
	if !ok {
		return "", false, err
	}
	return real, true, nil
}

// readRegularFile reads abs (through the workspace, or directly when outside
// is an approved read outside it), refusing directories, other non-regular
// files and files over ReadMaxBytes. shown names the file in errors. It
// returns the content and the file's fstat.
func readRegularFile(env *Env, abs, shown string, outside bool) ([]byte, fs.FileInfo, error) {
	f, fi, err := openRegular(env, abs, outside)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, fmt.Errorf("File does not exist: %s", shown)
	case errors.Is(err, errIsDir):
		return nil, nil, fmt.Errorf("%s is a directory, not a file: use Glob to find files in it, or Bash `ls` to list it", shown)
	case errors.Is(err, errNotRegular):
		return nil, nil, fmt.Errorf("%s is not a regular file", shown)
	case err != nil:
		return nil, nil, err
	}
	defer f.Close()
	if fi.Size() > ReadMaxBytes {
		return nil, nil, fmt.Errorf("%s is too large to read (%d bytes, limit %d): use Grep to find the part you need, or Bash head/tail/sed", shown, fi.Size(), ReadMaxBytes)
	}
	content, err := readAllOf(f, fi.Size(), ReadMaxBytes)
	if err != nil {
		return nil, nil, err
	}
	return content, fi, nil
}

// looksBinary reports whether the first binarySniffBytes of b contain a NUL byte
// or invalid UTF-8 (a multi-byte sequence cut by the sniff window is allowed).
func looksBinary(b []byte) bool {
	head := b[:min(len(b), binarySniffBytes)]
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	if len(head) < len(b) {
		// Drop a rune that may continue past the window.
		for i := 0; i < utf8.UTFMax-1 && len(head) > 0; i++ {
			if r, _ := utf8.DecodeLastRune(head); r != utf8.RuneError {
				break
			}
			head = head[:len(head)-1]
		}
	}
	return !utf8.Valid(head)
}

// formatLines renders lines [offset, offset+limit) of content as "%6d\t%s",
// with the notices Read gives for empty files, offsets past the end and
// remaining lines. The lines stop before the one that would take the result
// past capBytes (at least one line is always given; capBytes <= 0: no cap),
// and a notice then names the offset to read on from.
func formatLines(content []byte, offset, limit, capBytes int) string {
	text := strings.TrimPrefix(string(content), utf8BOM)
	if text == "" {
		return "<system-reminder>File exists but is empty.</system-reminder>"
	}
	total := strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") {
		total++
	}
	if offset <= 0 {
		offset = 1
	}
	if limit <= 0 {
		limit = ReadDefaultLimit
	}
	if offset > total {
		return fmt.Sprintf("<system-reminder>Offset %d is past the end of the file, which has %d lines.</system-reminder>", offset, total)
	}
	last := min(offset+limit-1, total)
	var b strings.Builder
	n := 0
	for line := range strings.Lines(text) {
		n++
		if n < offset {
			continue
		}
		if n > last {
			break
		}
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		numbered := fmt.Sprintf("%6d\t%s\n", n, cutLine(line))
		if capBytes > 0 && n > offset && b.Len()+len(numbered) > capBytes-readCapNoticeRoom {
			fmt.Fprintf(&b, "\n... output cut at %d KB to fit the context: lines %d-%d of %d shown; to read on, call Read with offset %d (and a smaller limit)\n", capBytes>>10, offset, n-1, total, n)
			return b.String()
		}
		b.WriteString(numbered)
	}
	if last < total {
		fmt.Fprintf(&b, "\n... %d more lines; use offset/limit to read them (the file has %d lines, this was %d-%d)\n", total-last, total, offset, last)
	}
	return b.String()
}

// cutLine makes line valid UTF-8 and cuts it at ReadMaxLineChars characters.
func cutLine(line string) string {
	line = strings.ToValidUTF8(line, "\uFFFD")
	if len(line) <= ReadMaxLineChars {
		return line
	}
	i, count := 0, 0
	for i < len(line) && count < ReadMaxLineChars {
		_, size := utf8.DecodeRuneInString(line[i:])
		i += size
		count++
	}
	if i == len(line) {
		return line
	}
	return line[:i] + lineTruncatedMarker
}
