package config

import (
	"bytes"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// PatchTOML returns old changed to hold exactly doc, keeping everything the
// person wrote that doc does not change — comments, blank lines, key order,
// quoting — as Claude Code and Crush keep a settings file they add a line to
// (a new user r21 lost every comment of config.toml to a `pincer model
// refresh`). It edits old in place: a key doc drops is removed with its line,
// a key whose value changed gets the new value after its own key text (a
// comment after it on the line stays), a new key goes at the end of its
// table, a new table at the end of the file; an empty table is not written,
// and a table doc drops loses its header line too.
// The result is parsed back and must equal doc; where the change cannot be
// made in place (an array of tables, an inline table changed, a table made
// implicitly by dotted keys) the whole document is rendered from doc
// instead, as before, comments lost. Errors: doc cannot be rendered.
func PatchTOML(old []byte, doc map[string]any) ([]byte, error) {
	if out, ok := patchTOML(old, doc); ok {
		return out, nil
	}
	return toml.Marshal(doc)
}

// tomlKV is one key/value expression of a document: its full key path,
// the byte offsets of the expression (key to end of value) and of its line
// (start, and end after the newline).
type tomlKV struct {
	path               []string
	start, end         int
	lineStart, lineEnd int
}

// tomlTable is a [table] header: its path and where a key added to it goes
// (after its last key/value line, or after the header).
type tomlTable struct {
	path               []string
	insert             int
	lineStart, lineEnd int // the header's line
}

// tomlEdit replaces old[start:end] with text.
type tomlEdit struct {
	start, end int
	text       string
	order      int // for edits at the same offset: the order they were made in
}

func patchTOML(old []byte, doc map[string]any) ([]byte, bool) {
	want, ok := normalTOML(doc)
	if !ok {
		return nil, false
	}
	var before map[string]any
	if err := toml.Unmarshal(old, &before); err != nil {
		return nil, false
	}
	kvs, tables, rootInsert, ok := scanTOML(old)
	if !ok {
		return nil, false
	}
	var edits []tomlEdit
	add := func(start, end int, text string) {
		edits = append(edits, tomlEdit{start, end, text, len(edits)})
	}
	handled := map[string]bool{}
	for _, kv := range kvs {
		handled[strings.Join(kv.path, "\x00")] = true
		nv, has := lookupTOML(want, kv.path)
		ov, _ := lookupTOML(before, kv.path)
		switch {
		case !has:
			add(kv.lineStart, kv.lineEnd, "")
		case reflect.DeepEqual(nv, ov):
		case isMap(nv) || isMap(ov):
			return nil, false // an inline table, or a dotted key's table, changed
		default:
			v, ok := renderTOMLValue(nv)
			if !ok {
				return nil, false
			}
			key := strings.TrimRight(string(old[kv.start:kv.end]), " \t")
			eq := strings.IndexByte(key, '=')
			if eq < 0 {
				return nil, false
			}
			add(kv.start, kv.end, strings.TrimRight(key[:eq], " \t")+" = "+v)
		}
	}
	for _, t := range tables { // a table doc no longer has loses its header too
		if _, has := lookupTOML(want, t.path); !has {
			add(t.lineStart, t.lineEnd, "")
		}
	}
	// New keys: into their table when it has a header, at the top for the
	// root, else in a new table at the end.
	headers := map[string]tomlTable{}
	for _, t := range tables {
		headers[strings.Join(t.path, "\x00")] = t
	}
	newTables := map[string][]string{}
	var newOrder []string
	var failed bool
	walkTOML(want, nil, func(path []string, v any) {
		for i := len(path); i > 0; i-- {
			if handled[strings.Join(path[:i], "\x00")] {
				return // inside a value already written (an inline table)
			}
		}
		line, ok := renderTOMLLine(path[len(path)-1], v)
		if !ok {
			failed = true
			return
		}
		parent := path[:len(path)-1]
		switch t, has := headers[strings.Join(parent, "\x00")]; {
		case len(parent) == 0:
			add(rootInsert, rootInsert, line)
		case has:
			add(t.insert, t.insert, line)
		default:
			k := strings.Join(parent, "\x00")
			if _, seen := newTables[k]; !seen {
				newOrder = append(newOrder, k)
			}
			newTables[k] = append(newTables[k], line)
		}
	})
	if failed {
		return nil, false
	}
	var tail strings.Builder
	for _, k := range newOrder {
		tail.WriteString("\n[" + joinTOMLKey(strings.Split(k, "\x00")) + "]\n")
		for _, l := range newTables[k] {
			tail.WriteString(l)
		}
	}
	out := applyTOMLEdits(old, edits)
	if tail.Len() > 0 {
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, '\n')
		}
		out = append(out, tail.String()...)
		if bytes.HasPrefix(out, []byte("\n")) {
			out = out[1:]
		}
	}
	got := map[string]any{}
	if err := toml.Unmarshal(out, &got); err != nil {
		return nil, false
	}
	if g, ok := normalTOML(got); !ok || !reflect.DeepEqual(g, want) {
		return nil, false
	}
	return out, true
}

// scanTOML lists data's key/value expressions and table headers, and where
// a new top-level key goes (after the last one before the first header, or
// at the start). ok is false for a document with an array of tables, or one
// that does not parse.
func scanTOML(data []byte) (kvs []tomlKV, tables []tomlTable, rootInsert int, ok bool) {
	p := &unstable.Parser{}
	p.Reset(data)
	var table []string
	var cur *tomlTable
	seenHeader := false
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.ArrayTable:
			return nil, nil, 0, false
		case unstable.Table:
			table = keyPath(e.Key())
			if len(table) == 0 {
				return nil, nil, 0, false
			}
			it := e.Key()
			first, last := -1, 0
			for it.Next() {
				if first < 0 {
					first = int(it.Node().Raw.Offset)
				}
				last = int(it.Node().Raw.Offset + it.Node().Raw.Length)
			}
			tables = append(tables, tomlTable{path: table, insert: lineEnd(data, last),
				lineStart: lineStart(data, first), lineEnd: lineEnd(data, last)})
			cur = &tables[len(tables)-1]
			seenHeader = true
		case unstable.KeyValue:
			start, end := int(e.Raw.Offset), int(e.Raw.Offset+e.Raw.Length)
			kv := tomlKV{path: append(slices.Clone(table), keyPath(e.Key())...), start: start, end: end,
				lineStart: lineStart(data, start), lineEnd: lineEnd(data, end)}
			kvs = append(kvs, kv)
			if cur != nil {
				cur.insert = kv.lineEnd
			} else if !seenHeader {
				rootInsert = kv.lineEnd
			}
		}
	}
	if p.Error() != nil {
		return nil, nil, 0, false
	}
	return kvs, tables, rootInsert, true
}

// keyPath is the dotted key an iterator over Key nodes spells.
func keyPath(it unstable.Iterator) []string {
	var out []string
	for it.Next() {
		out = append(out, string(it.Node().Data))
	}
	return out
}

// lineStart is the offset of the start of the line holding offset off.
func lineStart(data []byte, off int) int {
	return bytes.LastIndexByte(data[:off], '\n') + 1
}

// lineEnd is the offset after the newline ending the line holding off (the
// end of data when there is none).
func lineEnd(data []byte, off int) int {
	if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(data)
}

// applyTOMLEdits applies edits to data, the last first (the ones at the same
// offset in the order they were made).
func applyTOMLEdits(data []byte, edits []tomlEdit) []byte {
	sort.SliceStable(edits, func(i, j int) bool {
		if edits[i].start != edits[j].start {
			return edits[i].start > edits[j].start
		}
		return edits[i].order > edits[j].order
	})
	out := slices.Clone(data)
	for _, e := range edits {
		text := e.text
		if e.start == e.end && e.start > 0 && out[e.start-1] != '\n' {
			text = "\n" + text // an insertion after a last line without a newline
		}
		out = slices.Concat(out[:e.start], []byte(text), out[e.end:])
	}
	return out
}

// walkTOML calls f for every value of doc that is not a table, with its path.
func walkTOML(doc map[string]any, path []string, f func([]string, any)) {
	keys := make([]string, 0, len(doc))
	for k := range doc {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := append(slices.Clone(path), k)
		if m, ok := doc[k].(map[string]any); ok {
			walkTOML(m, p, f)
			continue
		}
		f(p, doc[k])
	}
}

// lookupTOML is the value at path in doc.
func lookupTOML(doc map[string]any, path []string) (any, bool) {
	var cur any = doc
	for _, k := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[k]; !ok {
			return nil, false
		}
	}
	return cur, true
}

func isMap(v any) bool { _, ok := v.(map[string]any); return ok }

// normalTOML is doc as a TOML reader returns it (rendered and parsed back:
// []string becomes []any, int int64), without empty tables.
func normalTOML(doc map[string]any) (map[string]any, bool) {
	b, err := toml.Marshal(doc)
	if err != nil {
		return nil, false
	}
	out := map[string]any{}
	if err := toml.Unmarshal(b, &out); err != nil {
		return nil, false
	}
	dropEmptyTables(out)
	return out, true
}

// dropEmptyTables removes the tables of m that hold nothing but empty tables.
func dropEmptyTables(m map[string]any) bool {
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok && dropEmptyTables(sub) {
			delete(m, k)
		}
	}
	return len(m) == 0
}

// renderTOMLLine is `key = value` and a newline.
func renderTOMLLine(key string, v any) (string, bool) {
	val, ok := renderTOMLValue(v)
	if !ok {
		return "", false
	}
	return joinTOMLKey([]string{key}) + " = " + val + "\n", true
}

// renderTOMLValue is v written as a TOML value on one line — a string in
// double quotes, as people write them; ok is false for a table (or an array
// holding one).
func renderTOMLValue(v any) (string, bool) {
	switch x := v.(type) {
	case map[string]any:
		return "", false
	case string:
		return tomlBasicString(x), true
	case []string:
		return renderTOMLValue(toAny(x))
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			s, ok := renderTOMLValue(e)
			if !ok {
				return "", false
			}
			parts[i] = s
		}
		return "[" + strings.Join(parts, ", ") + "]", true
	}
	if a, ok := v.([]any); ok && slices.ContainsFunc(a, isMap) {
		return "", false
	}
	b, err := toml.Marshal(map[string]any{"v": v})
	if err != nil {
		return "", false
	}
	s, ok := strings.CutPrefix(strings.TrimRight(string(b), "\n"), "v = ")
	if !ok || strings.Contains(s, "\n") {
		return "", false
	}
	return s, true
}

// tomlBasicString is s as a TOML basic string ("...", with TOML's escapes).
func tomlBasicString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

var bareTOMLKey = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// joinTOMLKey is path as a dotted key, each part bare when it can be.
func joinTOMLKey(path []string) string {
	parts := make([]string, len(path))
	for i, k := range path {
		if bareTOMLKey.MatchString(k) {
			parts[i] = k
		} else {
			parts[i] = tomlBasicString(k)
		}
	}
	return strings.Join(parts, ".")
}
