package permission

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

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

// tomlKeys is the permissions table's keys, to find misspelled ones.
type tomlKeys struct {
	Permissions map[string]any `toml:"permissions"`
}

// knownPermissionKeys are the keys a permissions table may hold: pincer's lists,
// and the other settings of Claude Code's "permissions" object, which pincer
// does not act on (additionalDirectories, defaultMode: the mode comes from the
// user's flags only; disableBypassPermissionsMode).
var knownPermissionKeys = map[string]bool{
	"allow": true, "ask": true, "deny": true,
	"additionalDirectories": true, "defaultMode": true, "disableBypassPermissionsMode": true,
}

// unknownKeys returns a *LoadError for each key of a permissions table that is
// not a known one: `dney = [...]` would otherwise drop deny rules in silence.
func unknownKeys(src source, table map[string]any, data []byte) []error {
	var errs []error
	for _, k := range sortedKeys(table) {
		if knownPermissionKeys[k] {
			continue
		}
		line := keyLine(data, k)
		errs = append(errs, &LoadError{Path: src.path, Line: line,
			Err: fmt.Errorf("permissions.%s: unknown key (want allow, ask or deny)", k)})
	}
	return errs
}

// keyLine returns the 1-based line of the first line that sets key (`key =`,
// `"key":`, `permissions.key =`), 0 when none does.
func keyLine(data []byte, key string) int {
	for i, line := range bytes.Split(data, []byte("\n")) {
		l := bytes.TrimSpace(line)
		l = bytes.TrimPrefix(l, []byte("permissions."))
		for _, p := range [][]byte{[]byte(key), []byte(`"` + key + `"`), []byte("'" + key + "'")} {
			if rest, ok := bytes.CutPrefix(l, p); ok {
				if r := bytes.TrimSpace(rest); len(r) > 0 && (r[0] == '=' || r[0] == ':') {
					return i + 1
				}
			}
		}
	}
	return 0
}

// sortedKeys returns m's keys in order, for stable messages.
func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
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
	var keys tomlKeys
	_ = toml.Unmarshal(data, &keys) // it parsed above
	rs, errs := toRuleSet(src, f.Permissions, func(s string) (int, int) { return tomlStringPos(data, s) })
	return rs, append(unknownKeys(src, keys.Permissions, data), errs...)
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
	if len(bytes.TrimSpace(data)) == 0 {
		return RuleSet{}, nil // an empty file holds no rules to lose
	}
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
		if line == 0 { // the input ended early: name its last line
			line = bytes.Count(bytes.TrimRight(data, "\n"), []byte("\n")) + 1
		}
		return RuleSet{}, []error{&LoadError{Path: src.path, Line: line, Column: col, Err: err}}
	}
	var keys struct {
		Permissions map[string]any `json:"permissions"`
	}
	_ = json.Unmarshal(data, &keys) // it parsed above
	rs, errs := toRuleSet(src, f.Permissions, func(s string) (int, int) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if enc.Encode(s) != nil {
			return 0, 0
		}
		return offsetPos(data, int64(bytes.Index(data, bytes.TrimSpace(buf.Bytes())))+1)
	})
	return rs, append(unknownKeys(src, keys.Permissions, data), errs...)
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
