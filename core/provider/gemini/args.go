package gemini

import (
	"encoding/json"
	"strconv"
	"strings"
)

// partialArg is one streamed piece of a function call's arguments (Gemini 3 on
// Vertex, case 24): a value at a JSON path. A string may come in several pieces with
// willContinue set on all but the last.
type partialArg struct {
	JSONPath     string          `json:"jsonPath"`
	StringValue  *string         `json:"stringValue,omitempty"`
	NumberValue  json.RawMessage `json:"numberValue,omitempty"`
	BoolValue    *bool           `json:"boolValue,omitempty"`
	NullValue    json.RawMessage `json:"nullValue,omitempty"`
	WillContinue bool            `json:"willContinue,omitempty"`
}

// argsBuilder assembles a function call's arguments from partialArgs, keeping keys in
// the order they first arrived.
type argsBuilder struct {
	root    *node
	strings map[string]*strings.Builder // the string being streamed, per path
}

// apply sets one partial argument.
func (a *argsBuilder) apply(p partialArg) {
	if a.root == nil {
		a.root = newObject()
		a.strings = map[string]*strings.Builder{}
	}
	var v *node
	switch {
	case p.StringValue != nil:
		sb := a.strings[p.JSONPath]
		if sb == nil {
			sb = &strings.Builder{}
			a.strings[p.JSONPath] = sb
		}
		sb.WriteString(*p.StringValue)
		v = stringNode(sb.String())
		if !p.WillContinue {
			delete(a.strings, p.JSONPath) // a later value at this path starts afresh
		}
	case len(p.NumberValue) > 0 && json.Valid(p.NumberValue):
		v = scalar(string(p.NumberValue))
	case p.BoolValue != nil:
		v = scalar(strconv.FormatBool(*p.BoolValue))
	case len(p.NullValue) > 0:
		v = scalar("null")
	default:
		return
	}
	setPath(a.root, parsePath(p.JSONPath), v)
}

// json returns the arguments assembled so far ("{}" when none came).
func (a *argsBuilder) json() string {
	if a.root == nil {
		return "{}"
	}
	raw, _ := a.root.MarshalJSON()
	return string(raw)
}

// pathStep is one step of a JSON path: an object member or an array index.
type pathStep struct {
	key   string
	index int // >= 0 for an array index, -1 for a member
}

// parsePath reads the RFC 9535 paths Gemini sends: "$", then ".name", "['name']",
// "[\"name\"]" or "[3]" steps. A path it cannot read is taken as one member name (the
// text after "$."), so the value is kept rather than lost.
func parsePath(path string) []pathStep {
	rest, ok := strings.CutPrefix(path, "$")
	if !ok {
		return []pathStep{{key: path, index: -1}}
	}
	var steps []pathStep
	for rest != "" {
		switch {
		case rest[0] == '.':
			end := strings.IndexAny(rest[1:], ".[")
			if end < 0 {
				end = len(rest) - 1
			}
			steps = append(steps, pathStep{key: rest[1 : 1+end], index: -1})
			rest = rest[1+end:]
		case strings.HasPrefix(rest, "['") || strings.HasPrefix(rest, `["`):
			q := rest[1]
			end := strings.IndexByte(rest[2:], q)
			if end < 0 || !strings.HasPrefix(rest[2+end+1:], "]") {
				return fallbackPath(path)
			}
			steps = append(steps, pathStep{key: rest[2 : 2+end], index: -1})
			rest = rest[2+end+2:]
		case rest[0] == '[':
			end := strings.IndexByte(rest, ']')
			n, err := strconv.Atoi(rest[1:max(end, 1)])
			if end < 0 || err != nil || n < 0 {
				return fallbackPath(path)
			}
			steps = append(steps, pathStep{index: n})
			rest = rest[end+1:]
		default:
			return fallbackPath(path)
		}
	}
	return steps
}

// fallbackPath is the single member a path that cannot be read stands for.
func fallbackPath(path string) []pathStep {
	return []pathStep{{key: strings.TrimPrefix(strings.TrimPrefix(path, "$"), "."), index: -1}}
}

// setPath stores v at steps below root, creating objects and arrays on the way (array
// gaps are filled with null). A step that does not fit the value found there replaces
// it.
func setPath(root *node, steps []pathStep, v *node) {
	if len(steps) == 0 {
		return // "$" itself: the arguments are an object, not a scalar
	}
	cur := root
	for i, st := range steps {
		last := i == len(steps)-1
		next := v
		if st.index < 0 {
			if cur.kind != 'o' {
				*cur = *newObject()
			}
			if !last {
				next = cur.get(st.key)
				if next == nil || !fits(next, steps[i+1]) {
					next = container(steps[i+1])
				}
			}
			cur.set(st.key, next)
		} else {
			if cur.kind != 'a' {
				*cur = node{kind: 'a'}
			}
			for len(cur.items) <= st.index {
				cur.items = append(cur.items, scalar("null"))
			}
			if !last {
				next = cur.items[st.index]
				if !fits(next, steps[i+1]) {
					next = container(steps[i+1])
				}
			}
			cur.items[st.index] = next
		}
		cur = next
	}
}

// container returns the empty container a step walks into.
func container(st pathStep) *node {
	if st.index >= 0 {
		return &node{kind: 'a'}
	}
	return newObject()
}

// fits reports whether n is the container kind st walks into.
func fits(n *node, st pathStep) bool {
	return (st.index >= 0 && n.kind == 'a') || (st.index < 0 && n.kind == 'o')
}
