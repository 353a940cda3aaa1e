package permission

import (
	"bytes"
	"encoding/json"
	"errors"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// Reading the two file formats with positions for errors. go-toml/v2 is used
// directly rather than through koanf: each file must load (and fail) on its own,
// and koanf's merge would let a later file's list replace an earlier one's,
// where rule lists add up.

// tomlFile is the part of a TOML config file the rules live in.
type tomlFile struct {
	Permissions ruleLists `toml:"permissions"`
}

// parseTOMLRules reads [permissions] of a TOML file. A syntax error is one
// *LoadError with go-toml's line and column (the file contributes no rules); a
// bad rule is one *LoadError at the line of its string.
func parseTOMLRules(src source, data []byte) (RuleSet, []error) {
	var f tomlFile
	if err := toml.Unmarshal(data, &f); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return RuleSet{}, []error{&LoadError{Path: src.path, Line: line, Column: col, Err: err}}
		}
		return RuleSet{}, []error{&LoadError{Path: src.path, Err: err}}
	}
	return toRuleSet(src, f.Permissions, func(s string) (int, int) { return tomlStringPos(data, s) })
}

// tomlStringPos returns the line and column of the first TOML string whose value
// is s, walking the document with go-toml's parser (so any quoting style is
// found); 0, 0 if there is none.
func tomlStringPos(data []byte, s string) (int, int) {
	p := unstable.Parser{}
	p.Reset(data)
	var found *unstable.Node
	var walk func(n *unstable.Node)
	walk = func(n *unstable.Node) {
		for ; n != nil && n.Valid() && found == nil; n = n.Next() {
			if n.Kind == unstable.String && string(n.Data) == s {
				found = n
				return
			}
			walk(n.Child())
		}
	}
	for found == nil && p.NextExpression() {
		walk(p.Expression())
	}
	if found == nil {
		return 0, 0
	}
	sh := p.Shape(found.Raw)
	return sh.Start.Line, sh.Start.Column
}

// jsonFile is the part of a Claude Code settings file the rules live in.
type jsonFile struct {
	Permissions ruleLists `json:"permissions"`
}

// parseJSONRules reads "permissions" of a Claude Code settings file. Syntax and
// type errors carry the line and column of their byte offset.
func parseJSONRules(src source, data []byte) (RuleSet, []error) {
	var f jsonFile
	if err := json.Unmarshal(data, &f); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		off := int64(-1)
		switch {
		case errors.As(err, &se):
			off = se.Offset
		case errors.As(err, &te):
			off = te.Offset
		}
		line, col := offsetPos(data, off)
		return RuleSet{}, []error{&LoadError{Path: src.path, Line: line, Column: col, Err: err}}
	}
	return toRuleSet(src, f.Permissions, func(s string) (int, int) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if enc.Encode(s) != nil {
			return 0, 0
		}
		return offsetPos(data, int64(bytes.Index(data, bytes.TrimSpace(buf.Bytes())))+1)
	})
}

// offsetPos turns a 1-based byte offset (as encoding/json reports it: the bytes
// read so far) into a line and column; 0, 0 when off is out of range.
func offsetPos(data []byte, off int64) (int, int) {
	if off <= 0 || off > int64(len(data)) {
		return 0, 0
	}
	before := data[:off-1]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return line, col
}
