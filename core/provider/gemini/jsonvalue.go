package gemini

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// node is a JSON value that keeps the order of object keys, which encoding/json's
// maps lose: a schema's properties and a tool call's arguments reach the model, and
// the user, in the order they were written. Scalars keep their literal text.
type node struct {
	kind   byte // 'o' object, 'a' array, 's' scalar
	keys   []string
	fields map[string]*node
	items  []*node
	raw    json.RawMessage // scalars: the literal JSON text
}

// newObject returns an empty object node.
func newObject() *node { return &node{kind: 'o', fields: map[string]*node{}} }

// scalar returns a node holding the JSON text raw.
func scalar(raw string) *node { return &node{kind: 's', raw: json.RawMessage(raw)} }

// stringNode returns a node holding the JSON string s.
func stringNode(s string) *node { return scalar(quote(s)) }

// parseNode decodes one JSON value.
func parseNode(data []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := decodeNode(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("trailing data after JSON value")
	}
	return n, nil
}

// decodeNode reads the next value from dec.
func decodeNode(dec *json.Decoder) (*node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n := newObject()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := kt.(string)
				v, err := decodeNode(dec)
				if err != nil {
					return nil, err
				}
				n.set(key, v)
			}
			_, err := dec.Token() // '}'
			return n, err
		case '[':
			n := &node{kind: 'a'}
			for dec.More() {
				v, err := decodeNode(dec)
				if err != nil {
					return nil, err
				}
				n.items = append(n.items, v)
			}
			_, err := dec.Token() // ']'
			return n, err
		}
		return nil, errors.New("unexpected delimiter")
	case string:
		return stringNode(t), nil
	case json.Number:
		return scalar(t.String()), nil
	case bool:
		if t {
			return scalar("true"), nil
		}
		return scalar("false"), nil
	case nil:
		return scalar("null"), nil
	}
	return nil, errors.New("unexpected token")
}

// get returns an object's field, or nil.
func (n *node) get(key string) *node {
	if n == nil || n.kind != 'o' {
		return nil
	}
	return n.fields[key]
}

// set adds or replaces an object's field, keeping the position of a replaced key.
func (n *node) set(key string, v *node) {
	if _, ok := n.fields[key]; !ok {
		n.keys = append(n.keys, key)
	}
	n.fields[key] = v
}

// del removes an object's field.
func (n *node) del(key string) {
	if _, ok := n.fields[key]; !ok {
		return
	}
	delete(n.fields, key)
	for i, k := range n.keys {
		if k == key {
			n.keys = append(n.keys[:i], n.keys[i+1:]...)
			break
		}
	}
}

// str returns the value of a string scalar, and whether n is one.
func (n *node) str() (string, bool) {
	if n == nil || n.kind != 's' || len(n.raw) == 0 || n.raw[0] != '"' {
		return "", false
	}
	var s string
	return s, json.Unmarshal(n.raw, &s) == nil
}

// isNull reports a JSON null.
func (n *node) isNull() bool { return n != nil && n.kind == 's' && string(n.raw) == "null" }

// MarshalJSON writes the value compactly, object keys in their order, without
// escaping HTML characters (code in arguments stays readable).
func (n *node) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	n.write(&b)
	return b.Bytes(), nil
}

// write appends the compact JSON text of n to b.
func (n *node) write(b *bytes.Buffer) {
	switch n.kind {
	case 'o':
		b.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(quote(k))
			b.WriteByte(':')
			n.fields[k].write(b)
		}
		b.WriteByte('}')
	case 'a':
		b.WriteByte('[')
		for i, v := range n.items {
			if i > 0 {
				b.WriteByte(',')
			}
			v.write(b)
		}
		b.WriteByte(']')
	default:
		b.Write(n.raw)
	}
}

// quote returns s as a JSON string literal, HTML characters unescaped.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}
