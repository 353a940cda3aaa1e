package config

import (
	"errors"
	"fmt"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// FileError is a problem with one configuration file (or a layer that is not a
// file: the environment, the flags): a line that does not parse, a value of the
// wrong type, an unknown key, a rule or hook that does not validate. It is the
// one error type of every config source; the behaviour packages (permission,
// hook, sandbox, the key map) report their problems with it too.
//
// Every FileError is fatal — pincer must not run with fewer deny or ask rules,
// hooks or sandbox settings than the user wrote (issue 10, class 13) — unless
// Warning is set: a problem whose loss only takes something away that is not a
// safety setting (an allow rule that does not parse, an unknown top-level key,
// a Claude Code hook type pincer does not run).
type FileError struct {
	Path         string // the file, or the layer's name
	Line, Column int    // 1-based; 0 when unknown
	Key          string // dotted key of the value at fault, when there is one
	Err          error
	Warning      bool
}

// Error is the type's former name, kept for the provider layers' callers.
type Error = FileError

// Error reads "path:line:column: problem", "path:line: problem" (a compiler's
// FILE:LINE, which the fail-closed messages and tests match), "path: key:
// problem" when only the key is known, else "path: problem".
func (e *FileError) Error() string {
	switch {
	case e.Line > 0 && e.Column > 0:
		return fmt.Sprintf("%s:%d:%d: %v", e.Path, e.Line, e.Column, e.Err)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %v", e.Path, e.Line, e.Err)
	case e.Key != "":
		return fmt.Sprintf("%s: %s: %v", e.Path, e.Key, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Err)
}

// Unwrap returns the problem.
func (e *FileError) Unwrap() error { return e.Err }

// Fatal returns the errors among errs that must stop pincer: every one that is
// not a *FileError with Warning set.
func Fatal(errs []error) []error {
	var out []error
	for _, err := range errs {
		var fe *FileError
		if errors.As(err, &fe) && fe.Warning {
			continue
		}
		out = append(out, err)
	}
	return out
}

// TOMLError turns a go-toml decoding error of the file at path into a
// *FileError with its line and column (go-toml's "toml: " prefix dropped).
func TOMLError(path string, err error) *FileError {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		return &FileError{Path: path, Line: row, Column: col, Err: errors.New(strings.TrimPrefix(de.Error(), "toml: "))}
	}
	var se *toml.StrictMissingError
	if errors.As(err, &se) {
		return &FileError{Path: path, Err: se}
	}
	return &FileError{Path: path, Err: err}
}

// prefixed is err with prefix before its text, still unwrapping to err.
func prefixed(prefix string, err error) error { return fmt.Errorf("%s%w", prefix, err) }
