package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// JSONError turns an encoding/json error from decoding data (the file at
// path) into a *FileError in plain words at its line and column: a value of
// the wrong kind says which field wanted which kind ("version must be a
// number, not a string") instead of encoding/json's Go types ("cannot
// unmarshal string into Go struct field trustRecord.version of type int"); a
// syntax error keeps its description without the "json: " prefix; input that
// ends early names the last line.
func JSONError(path string, data []byte, err error) *FileError {
	fe := &FileError{Path: path, Err: err}
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		fe.Line, fe.Column = lineCol(data, valueStart(data, int(te.Offset)))
		field := te.Field
		if field == "" {
			field = "the document"
		}
		fe.Err = fmt.Errorf("%s must be %s, not %s", field, goKind(te.Type), jsonKind(te.Value))
	case errors.As(err, &se) && strings.Contains(se.Error(), "unexpected end"), errors.Is(err, io.ErrUnexpectedEOF):
		fe.Line = bytes.Count(bytes.TrimRight(data, "\n"), []byte("\n")) + 1
		fe.Err = errors.New("the file ends before its JSON does")
	case errors.As(err, &se):
		fe.Line, fe.Column = lineCol(data, int(se.Offset)-1)
		fe.Err = errors.New(strings.TrimPrefix(se.Error(), "json: "))
	}
	return fe
}

// valueStart is the offset where the value that ends at end (encoding/json's
// UnmarshalTypeError.Offset, just past the value or its first token) starts:
// back over the value to the ':' or '[' or ',' before it.
func valueStart(data []byte, end int) int {
	end = min(max(end, 0), len(data))
	if end > 0 && (data[end-1] == '[' || data[end-1] == '{') { // the value's first token
		return end - 1
	}
	i := bytes.LastIndexAny(data[:end], ":[,")
	if i < 0 {
		return 0
	}
	i++
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// goKind names the kind of JSON value a Go type takes.
func goKind(t reflect.Type) string {
	if t == nil {
		return "another kind of value"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8,
		reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return goKind(t.Elem())
	}
	return "another kind of value"
}

// jsonKind names a kind of JSON value as encoding/json spells it ("string",
// "number", "bool", "array", "object", or "number 1.5" for a number out of
// range) in the words of kindOf.
func jsonKind(v string) string {
	switch {
	case v == "bool":
		return "true or false"
	case v == "array", v == "object":
		return "an " + v
	case v == "null":
		return "null"
	case strings.HasPrefix(v, "number "):
		return "the number " + strings.TrimPrefix(v, "number ")
	}
	return "a " + v
}
