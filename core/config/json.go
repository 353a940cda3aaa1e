package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// decodeJSON decodes a Claude Code settings file into its tree and the position of
// every key and value, in one pass over its tokens. A syntax error, a top level
// that is not an object, or a key given twice in one object (encoding/json would
// keep the last in silence: `"deny": [...], "deny": []` must not drop rules) is a
// *FileError at its line and column. A file of only white space is an empty one.
func decodeJSON(path string, data []byte) (map[string]any, positions, *FileError) {
	pos := positions{}
	if len(bytes.TrimSpace(data)) == 0 {
		return map[string]any{}, pos, nil
	}
	lines := newLineIndex(data)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	// start is where the next token begins: after the last token, white space and
	// the ':' or ',' between.
	start := func() Pos {
		off := int(dec.InputOffset())
		for off < len(data) && bytes.IndexByte([]byte(" \t\r\n:,"), data[off]) >= 0 {
			off++
		}
		return lines.at(off)
	}
	fail := func(err error) *FileError {
		// The decoder's token stream reports syntax errors at a position of its
		// buffer; encoding/json's whole-document check names the byte.
		var whole any
		if werr := json.Unmarshal(data, &whole); werr != nil {
			err = werr
		}
		fe := &FileError{Path: path, Err: err}
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			fe.Line, fe.Column = lineCol(data, int(se.Offset)-1)
		case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
			fe.Line = bytes.Count(bytes.TrimRight(data, "\n"), []byte("\n")) + 1 // the input ended early: its last line
			fe.Err = errors.New("unexpected end of JSON input")
		}
		return fe
	}
	var value func(path string) (any, *FileError)
	value = func(path string) (any, *FileError) {
		here := start()
		tok, err := dec.Token()
		if err != nil {
			return nil, fail(err)
		}
		pos.set(path, here)
		switch t := tok.(type) {
		case json.Delim:
			if t == '[' {
				list := []any{}
				for i := 0; dec.More(); i++ {
					v, fe := value(path + "[" + strconv.Itoa(i) + "]")
					if fe != nil {
						return nil, fe
					}
					list = append(list, v)
				}
				if _, err := dec.Token(); err != nil {
					return nil, fail(err)
				}
				return list, nil
			}
			obj := map[string]any{}
			for dec.More() {
				kat := start()
				ktok, err := dec.Token()
				if err != nil {
					return nil, fail(err)
				}
				key, _ := ktok.(string)
				kpath := key
				if path != "" {
					kpath = path + "." + key
				}
				if _, dup := obj[key]; dup {
					return nil, &FileError{Path: "", Line: kat.Line, Column: kat.Column, Key: kpath,
						Err: fmt.Errorf("duplicate key %q", key)}
				}
				pos.set(kpath, kat)
				v, fe := value(kpath)
				if fe != nil {
					return nil, fe
				}
				obj[key] = v
			}
			if _, err := dec.Token(); err != nil {
				return nil, fail(err)
			}
			return obj, nil
		case json.Number:
			f, err := t.Float64()
			if err != nil {
				return nil, &FileError{Line: here.Line, Column: here.Column, Key: path, Err: err}
			}
			return f, nil
		}
		return tok, nil
	}
	v, fe := value("")
	if fe == nil {
		at := start()
		if _, err := dec.Token(); err != io.EOF {
			fe = &FileError{Line: at.Line, Column: at.Column, Err: errors.New("data after the top-level object")}
			if err != nil {
				fe = fail(err)
			}
		}
	}
	if fe != nil {
		fe.Path = path
		return nil, nil, fe
	}
	tree, ok := v.(map[string]any)
	if !ok {
		return nil, nil, &FileError{Path: path, Line: 1, Column: 1, Err: errors.New("want a JSON object at the top level")}
	}
	return tree, pos, nil
}
