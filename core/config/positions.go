package config

import (
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// Pos is a 1-based line and column in a file.
type Pos struct{ Line, Column int }

// positions maps the dotted path of each key and value of a document
// ("permissions.deny", "permissions.deny[2]", "hooks.PreToolUse[0].command") to
// where it starts.
type positions map[string]Pos

// near returns the position of path, else of the longest enclosing path that has
// one (the key of an array whose element has no position of its own, say).
func (p positions) near(path string) Pos {
	for path != "" {
		if at, ok := p[path]; ok {
			return at
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			break
		}
		path = path[:i]
	}
	return Pos{}
}

// set records path's position unless it has one (the first mention wins: the
// table header before a later dotted key into it).
func (p positions) set(path string, at Pos) {
	if _, ok := p[path]; !ok && at.Line > 0 {
		p[path] = at
	}
}

// lineIndex turns byte offsets into positions.
type lineIndex []int // the offset each line starts at

func newLineIndex(data []byte) lineIndex {
	idx := lineIndex{0}
	for i, c := range data {
		if c == '\n' {
			idx = append(idx, i+1)
		}
	}
	return idx
}

func (l lineIndex) at(off int) Pos {
	line := sort.Search(len(l), func(i int) bool { return l[i] > off }) // lines starting after off
	return Pos{Line: line, Column: off - l[line-1] + 1}
}

// tomlPositions walks a TOML document that go-toml decoded (so it parses) with
// go-toml's own parser and records the position of every table, key and value.
func tomlPositions(data []byte) positions {
	pos := positions{}
	lines := newLineIndex(data)
	var p unstable.Parser
	p.Reset(data)
	at := func(n *unstable.Node) Pos {
		if n == nil || n.Raw.Length == 0 && n.Raw.Offset == 0 && n.Kind != unstable.Key {
			return Pos{}
		}
		return lines.at(int(n.Raw.Offset))
	}
	keyPath := func(prefix string, it unstable.Iterator) (string, Pos) {
		path, first := prefix, Pos{}
		for it.Next() {
			k := it.Node()
			if first.Line == 0 {
				first = at(k)
			}
			if path != "" {
				path += "."
			}
			path += string(k.Data)
			pos.set(path, at(k))
		}
		return path, first
	}
	var value func(path string, v *unstable.Node, fallback Pos)
	keyValue := func(prefix string, kv *unstable.Node) {
		path, first := keyPath(prefix, kv.Key())
		pos.set(path, first)
		value(path, kv.Value(), first)
	}
	value = func(path string, v *unstable.Node, fallback Pos) {
		switch v.Kind {
		case unstable.Array:
			i := 0
			for it := v.Children(); it.Next(); i++ {
				el := it.Node()
				elPath := path + "[" + strconv.Itoa(i) + "]"
				here := at(el)
				if here.Line == 0 {
					here = fallback
				}
				pos.set(elPath, here)
				value(elPath, el, here)
			}
		case unstable.InlineTable:
			for it := v.Children(); it.Next(); {
				if kv := it.Node(); kv.Kind == unstable.KeyValue {
					keyValue(path, kv)
				}
			}
		}
	}
	prefix := ""
	arrays := map[string]int{}
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table:
			prefix, _ = keyPath("", e.Key())
		case unstable.ArrayTable:
			name, first := keyPath("", e.Key())
			prefix = name + "[" + strconv.Itoa(arrays[name]) + "]"
			arrays[name]++
			pos.set(prefix, first)
		case unstable.KeyValue:
			keyValue(prefix, e)
		}
	}
	return pos
}
