package gemini

import (
	"encoding/json"
	"strings"
)

// Gemini's function declarations take their parameters in a subset of OpenAPI 3.0's
// Schema object, not JSON Schema: a declaration using a keyword outside the subset
// (additionalProperties, $schema, const, oneOf, ...) is rejected with HTTP 400
// ("Invalid JSON payload received. Unknown name ..."). The sanitiser below rewrites a
// tool's JSON Schema into that subset, keeping what it can express.

// allowedKeys are the Schema fields Gemini accepts; every other keyword is dropped
// after the rewrites below.
var allowedKeys = map[string]bool{
	"type": true, "format": true, "title": true, "description": true, "nullable": true,
	"enum": true, "items": true, "properties": true, "required": true, "anyOf": true,
	"minItems": true, "maxItems": true, "minimum": true, "maximum": true,
	"minLength": true, "maxLength": true, "pattern": true,
	"minProperties": true, "maxProperties": true, "propertyOrdering": true,
}

// allowedFormats are the formats Gemini accepts per type; others ("uri", "email",
// "uuid", ...) are rejected, so they are dropped.
var allowedFormats = map[string]map[string]bool{
	"string":  {"enum": true, "date-time": true},
	"integer": {"int32": true, "int64": true},
	"number":  {"float": true, "double": true},
}

// maxRefDepth bounds the inlining of $ref: recursive schemas are cut there.
const maxRefDepth = 8

// SanitizeSchema rewrites a tool's JSON Schema into the Schema subset Gemini accepts:
//   - $ref to "#/$defs/..." or "#/definitions/..." is inlined (recursion cut at
//     depth 8, where an object without properties stands in);
//   - allOf is merged into its parent (properties and required united);
//   - const becomes a one-value enum; oneOf becomes anyOf;
//   - "null" in a type array, an anyOf branch {"type":"null"} or a null enum value
//     becomes nullable: true; a type array of several other types becomes anyOf;
//     an anyOf left with one branch is merged into its parent;
//   - enum is kept only when all its values are strings (Gemini's enums are string
//     enums), format only when Gemini knows it for the type;
//   - exclusiveMinimum/exclusiveMaximum (either draft's form) become minimum/maximum,
//     with the exclusive bound in the description unless the type is integer
//     (schema_bounds.go);
//   - required keeps only names that are properties; an empty properties or
//     required is dropped;
//   - every other keyword (additionalProperties, patternProperties, $schema, $id,
//     $defs, default, examples, not, if/then/else, ...) is dropped.
//
// It returns nil when the result has no properties: Gemini rejects an OBJECT
// parameters schema with empty properties, so such a tool is declared without
// parameters. Invalid JSON also gives nil.
func SanitizeSchema(schema json.RawMessage) json.RawMessage {
	root, err := parseNode(schema)
	if err != nil || root.kind != 'o' {
		return nil
	}
	s := sanitizer{defs: map[string]*node{}}
	for _, key := range []string{"$defs", "definitions"} {
		if d := root.get(key); d != nil && d.kind == 'o' {
			for _, name := range d.keys {
				s.defs["#/"+key+"/"+name] = d.fields[name]
			}
		}
	}
	out := s.clean(root, 0)
	if props := out.get("properties"); props == nil || len(props.keys) == 0 {
		return nil
	}
	raw, _ := out.MarshalJSON()
	return raw
}

// sanitizer holds the definitions $ref may point to.
type sanitizer struct {
	defs map[string]*node
}

// clean returns the sanitised copy of one schema node (n is not modified). depth
// counts the $ref expansions on the way down.
func (s sanitizer) clean(n *node, depth int) *node {
	if n == nil || n.kind != 'o' {
		return newObject() // "true" or garbage: any value
	}
	n = s.expand(n, depth)
	if n.get("$ref") != nil {
		depth++ // the definition was inlined
	}
	out := newObject()
	nullable := false
	for _, key := range n.keys {
		v := n.fields[key]
		switch key {
		case "type":
			s.cleanType(out, v, &nullable)
		case "const":
			if str, ok := v.str(); ok {
				out.set("enum", &node{kind: 'a', items: []*node{stringNode(str)}})
			}
		case "enum":
			s.cleanEnum(out, v, &nullable)
		case "anyOf", "oneOf":
			s.cleanAnyOf(out, v, depth, &nullable)
		case "properties":
			if v.kind == 'o' && len(v.keys) > 0 {
				props := newObject()
				for _, name := range v.keys {
					props.set(name, s.clean(v.fields[name], depth))
				}
				out.set("properties", props)
			}
		case "items":
			if v.kind == 'a' && len(v.items) > 0 {
				v = v.items[0] // a tuple: its first item's schema
			}
			out.set("items", s.clean(v, depth))
		case "nullable":
			nullable = nullable || string(v.raw) == "true"
		default:
			if allowedKeys[key] && key != "required" && key != "format" {
				out.set(key, v)
			}
		}
	}
	s.finish(out, n, nullable)
	return out
}

// expand inlines a $ref and merges allOf into the node, returning a new node (the
// ref's or allOf's siblings win over what they bring, as a description next to a
// $ref describes this use of it).
func (s sanitizer) expand(n *node, depth int) *node {
	ref, hasRef := n.get("$ref").str()
	all := n.get("allOf")
	if !hasRef && (all == nil || all.kind != 'a') {
		return n
	}
	merged := newObject()
	if hasRef {
		if def, ok := s.defs[ref]; ok && depth < maxRefDepth {
			mergeInto(merged, s.expand(def, depth+1))
		} else {
			merged.set("type", stringNode("object")) // unknown or too deep: any object
		}
	}
	if all != nil && all.kind == 'a' {
		for _, sub := range all.items {
			if sub.kind == 'o' {
				mergeInto(merged, s.expand(sub, depth))
			}
		}
	}
	for _, key := range n.keys {
		if key != "allOf" {
			if key == "properties" || key == "required" {
				mergeInto(merged, &node{kind: 'o', keys: []string{key}, fields: map[string]*node{key: n.fields[key]}})
				continue
			}
			merged.set(key, n.fields[key])
		}
	}
	return merged
}

// mergeInto merges src's keys into dst: properties and required are united, other
// keys are taken from src unless dst has them.
func mergeInto(dst, src *node) {
	for _, key := range src.keys {
		v := src.fields[key]
		switch cur := dst.get(key); {
		case cur == nil:
			dst.set(key, v)
		case key == "properties" && cur.kind == 'o' && v.kind == 'o':
			props := newObject()
			for _, k := range cur.keys {
				props.set(k, cur.fields[k])
			}
			for _, k := range v.keys {
				props.set(k, v.fields[k])
			}
			dst.set(key, props)
		case key == "required" && cur.kind == 'a' && v.kind == 'a':
			dst.set(key, &node{kind: 'a', items: append(append([]*node{}, cur.items...), v.items...)})
		}
	}
}

// cleanType handles "type": a string is kept; in an array, "null" sets nullable, one
// other type is kept, several become anyOf branches.
func (s sanitizer) cleanType(out, v *node, nullable *bool) {
	if t, ok := v.str(); ok {
		if t == "null" {
			*nullable = true
		} else {
			out.set("type", v)
		}
		return
	}
	if v.kind != 'a' {
		return
	}
	var types []*node
	for _, t := range v.items {
		if name, ok := t.str(); ok {
			if name == "null" {
				*nullable = true
				continue
			}
			types = append(types, t)
		}
	}
	switch len(types) {
	case 0:
	case 1:
		out.set("type", types[0])
	default:
		branches := &node{kind: 'a'}
		for _, t := range types {
			b := newObject()
			b.set("type", t)
			branches.items = append(branches.items, b)
		}
		out.set("anyOf", branches)
	}
}

// cleanEnum keeps a string enum (null values set nullable); an enum with other
// values is dropped.
func (s sanitizer) cleanEnum(out, v *node, nullable *bool) {
	if v.kind != 'a' {
		return
	}
	values := &node{kind: 'a'}
	for _, item := range v.items {
		if item.isNull() {
			*nullable = true
			continue
		}
		if _, ok := item.str(); !ok {
			return
		}
		values.items = append(values.items, item)
	}
	if len(values.items) > 0 {
		out.set("enum", values)
	}
}

// cleanAnyOf sanitises anyOf/oneOf branches: {"type":"null"} branches set nullable,
// one remaining branch is merged into the parent, several stay as anyOf.
func (s sanitizer) cleanAnyOf(out, v *node, depth int, nullable *bool) {
	if v.kind != 'a' {
		return
	}
	var branches []*node
	for _, b := range v.items {
		if t, _ := b.get("type").str(); t == "null" && len(b.keys) == 1 {
			*nullable = true
			continue
		}
		branches = append(branches, s.clean(b, depth))
	}
	switch len(branches) {
	case 0:
	case 1:
		for _, key := range branches[0].keys {
			if out.get(key) == nil || key == "type" {
				out.set(key, branches[0].fields[key])
			}
		}
	default:
		out.set("anyOf", &node{kind: 'a', items: branches})
	}
}

// finish adds what depends on the whole node: the type implied by properties, items
// or a string enum; the format when allowed; required filtered by the properties;
// nullable. An array without items gets string items (Gemini requires items).
func (s sanitizer) finish(out, in *node, nullable bool) {
	if out.get("type") == nil && out.get("anyOf") == nil {
		switch {
		case out.get("properties") != nil:
			out.set("type", stringNode("object"))
		case out.get("items") != nil:
			out.set("type", stringNode("array"))
		case out.get("enum") != nil:
			out.set("type", stringNode("string"))
		}
	}
	typ, _ := out.get("type").str()
	if typ == "array" && out.get("items") == nil {
		out.set("items", &node{kind: 'o', keys: []string{"type"}, fields: map[string]*node{"type": stringNode("string")}})
	}
	if out.get("enum") != nil && typ != "string" {
		out.del("enum") // Gemini's enums are string enums
	}
	if f, ok := in.get("format").str(); ok && allowedFormats[strings.ToLower(typ)][f] {
		out.set("format", stringNode(f))
	}
	if req, props := in.get("required"), out.get("properties"); req != nil && req.kind == 'a' && props != nil {
		kept := &node{kind: 'a'}
		for _, r := range req.items {
			if name, ok := r.str(); ok && props.get(name) != nil {
				kept.items = append(kept.items, r)
			}
		}
		if len(kept.items) > 0 {
			out.set("required", kept)
		}
	}
	exclusiveBounds(out, in)
	if nullable {
		out.set("nullable", scalar("true"))
	}
}
