package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// jsonField is one member of a JSON object, kept in the file's order.
type jsonField struct {
	Key   string
	Value json.RawMessage
}

// jsonObject is a JSON object whose member order survives a decode and an
// encode, so that an edited notebook differs from the original only where it
// was changed.
type jsonObject []jsonField

// UnmarshalJSON decodes an object keeping its members' order.
func (o *jsonObject) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return errors.New("not a JSON object")
	}
	*o = (*o)[:0]
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		*o = append(*o, jsonField{Key: tok.(string), Value: v})
	}
	_, err = dec.Token()
	return err
}

// MarshalJSON encodes the object in its members' order.
func (o jsonObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := marshalNoEscape(f.Key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(f.Value)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// get returns the member key's value, or nil.
func (o jsonObject) get(key string) json.RawMessage {
	for _, f := range o {
		if f.Key == key {
			return f.Value
		}
	}
	return nil
}

// set replaces member key's value in its place, or adds the member where
// nbformat's sorted keys would put it.
func (o *jsonObject) set(key string, v any) {
	raw, _ := marshalNoEscape(v)
	for i := range *o {
		if (*o)[i].Key == key {
			(*o)[i].Value = raw
			return
		}
	}
	at := len(*o)
	for i, f := range *o {
		if f.Key > key {
			at = i
			break
		}
	}
	*o = append((*o)[:at], append([]jsonField{{Key: key, Value: raw}}, (*o)[at:]...)...)
}

// del removes member key.
func (o *jsonObject) del(key string) {
	for i := range *o {
		if (*o)[i].Key == key {
			*o = append((*o)[:i], (*o)[i+1:]...)
			return
		}
	}
}

// str returns member key as a string ("" when absent or not a string).
func (o jsonObject) str(key string) string {
	var s string
	_ = json.Unmarshal(o.get(key), &s)
	return s
}

// marshalNoEscape is json.Marshal without HTML escaping (nbformat writes <, >
// and & as they are).
func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// notebook is a parsed nbformat 4 notebook: the top-level object and its
// cells, both in file order, and the indent the file used.
type notebook struct {
	top    jsonObject
	cells  []jsonObject
	indent string
	minor  int
}

// parseNotebook parses an nbformat 4 notebook. Errors: not JSON, not
// nbformat 4, no cells array.
func parseNotebook(raw []byte) (*notebook, error) {
	nb := &notebook{indent: detectIndent(raw)}
	if err := json.Unmarshal(raw, &nb.top); err != nil {
		return nil, fmt.Errorf("not a valid notebook (JSON): %v", err)
	}
	var major int
	if err := json.Unmarshal(nb.top.get("nbformat"), &major); err != nil || major != 4 {
		return nil, errors.New("not an nbformat 4 notebook")
	}
	_ = json.Unmarshal(nb.top.get("nbformat_minor"), &nb.minor)
	if err := json.Unmarshal(nb.top.get("cells"), &nb.cells); err != nil {
		return nil, errors.New("the notebook has no cells array")
	}
	return nb, nil
}

// encode renders the notebook with its original indent and a final newline,
// as nbformat writes it.
func (nb *notebook) encode() (string, error) {
	cells := make([]json.RawMessage, len(nb.cells))
	for i, c := range nb.cells {
		cells[i], _ = c.MarshalJSON()
	}
	top := append(jsonObject(nil), nb.top...)
	top.set("cells", cells)
	compact, err := top.MarshalJSON()
	if err != nil {
		return "", err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact, "", nb.indent); err != nil {
		return "", err
	}
	out.WriteByte('\n')
	return out.String(), nil
}

// detectIndent is the indent of the file's first indented line (" " when
// there is none: nbformat's own).
func detectIndent(raw []byte) string {
	for _, line := range strings.Split(string(raw), "\n")[1:] {
		trimmed := strings.TrimLeft(line, " \t")
		if n := len(line) - len(trimmed); n > 0 && trimmed != "" {
			return line[:n]
		}
	}
	return " "
}

// findCell returns the index of the cell whose id is id, or, for a notebook
// without that id, of the cell "cell-N" names (N 0-based, as Claude Code
// names cells that have no id); -1 when none.
func (nb *notebook) findCell(id string) int {
	for i, c := range nb.cells {
		if c.str("id") == id {
			return i
		}
	}
	var n int
	if _, err := fmt.Sscanf(id, "cell-%d", &n); err == nil && fmt.Sprintf("cell-%d", n) == id && n >= 0 && n < len(nb.cells) {
		return n
	}
	return -1
}

// cellID is the id Read shows for cell i: its id, or "cell-N".
func (nb *notebook) cellID(i int) string {
	if id := nb.cells[i].str("id"); id != "" {
		return id
	}
	return fmt.Sprintf("cell-%d", i)
}

// sourceLines splits a cell source into nbformat's list of lines, each but the
// last ending in "\n".
func sourceLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if lines == nil {
		lines = []string{}
	}
	return lines
}

// joinText reads an nbformat multiline string: a string or a list of strings.
func joinText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []string
	_ = json.Unmarshal(raw, &parts)
	return strings.Join(parts, "")
}
