package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	toml "github.com/pelletier/go-toml/v2"

	"pincer/core/smallfile"
)

// MaxFileSize is the largest configuration file pincer reads (bytes). A larger
// one is a fatal *FileError at the line where the limit falls: no one writes a
// 4 MiB config.toml, and a reader must not be made to hold an endless one.
const MaxFileSize = 4 << 20

// Document is one source read once and decoded once: its bytes, its tree (TOML
// tables and JSON objects as map[string]any, arrays as []any) and the position of
// every key and value in it, for messages.
type Document struct {
	Source
	Exists bool   // the file is there (Data and Tree are set unless Err is)
	Data   []byte // the file's bytes, for the trust digest
	Tree   map[string]any
	// Err is why the file contributes nothing: it cannot be read, does not parse,
	// is too large, or (a project file) is a link leading out of the workspace.
	Err *FileError
	// Same is set when the file is an earlier source's (the workspace is the
	// config directory, say): it is read once, as that source.
	Same bool
	pos  positions
	// order is a --mcp-config document's place among them (0 for the first).
	order int
}

// readDocument reads and decodes src. workspace bounds a project file's
// symbolic links ("" for none).
func readDocument(src Source, workspace string) *Document {
	d := &Document{Source: src}
	place := smallfile.Place{} // the one reader: plain regular, never blocking, no kernel file
	if src.Project && workspace != "" {
		place.Root = workspace // a project file, or a link on its way, must not lead out of the workspace
	}
	f, err := place.Open(src.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return d
	}
	d.Exists = true
	if err != nil {
		d.Err = &FileError{Path: src.Path, Err: errors.New(strings.TrimPrefix(err.Error(), src.Path+": "))}
		return d
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		d.Err = &FileError{Path: src.Path, Err: err}
		return d
	}
	if len(data) > MaxFileSize {
		line, _ := lineCol(data, MaxFileSize)
		d.Err = &FileError{Path: src.Path, Line: line,
			Err: fmt.Errorf("the file is larger than %d bytes; pincer reads no configuration from it", MaxFileSize)}
		return d
	}
	d.Data = data
	if src.Format == JSON {
		d.Tree, d.pos, d.Err = decodeJSON(src.Path, data)
		return d
	}
	d.Tree = map[string]any{}
	if err := toml.Unmarshal(data, &d.Tree); err != nil {
		d.Tree, d.Err = nil, TOMLError(src.Path, err)
		return d
	}
	d.pos = tomlPositions(data)
	return d
}

// Line returns the 1-based line and column of the key or value at path ("permissions.deny",
// "permissions.deny[2]", "hooks.PreToolUse[0]"), else of the nearest enclosing one
// that has a position; 0, 0 when none has.
func (d *Document) Line(path string) (line, col int) {
	p := d.pos.near(path)
	return p.Line, p.Column
}

// errorAt is a *FileError about the value at key path of d.
func (d *Document) errorAt(key string, warning bool, format string, args ...any) *FileError {
	line, col := d.Line(key)
	return &FileError{Path: d.Path, Line: line, Column: col, Key: key, Err: fmt.Errorf(format, args...), Warning: warning}
}

// lineCol returns the 1-based line and column of byte offset off of data.
func lineCol(data []byte, off int) (int, int) {
	if off > len(data) {
		off = len(data)
	}
	if off < 0 {
		off = 0
	}
	before := data[:off]
	return bytes.Count(before, []byte("\n")) + 1, off - bytes.LastIndexByte(before, '\n')
}
