// Package frontmatter is pincer's one parser of YAML frontmatter: the `---`
// block a Markdown file (SKILL.md, a custom command, later agents and memory
// files) opens with, and the body after it. It reads the forms Claude Code
// reads:
//
//   - A file whose first line is `---` (a UTF-8 BOM and trailing spaces
//     allowed) has frontmatter up to the next line that is `---` (or `...`);
//     the body is everything after that line. A file without it is all body.
//   - An opening `---` with no closing line is an error (FILE:LINE of the
//     opening), never silently a body: a file that fails to parse contributes
//     nothing (fail closed).
//   - The block is YAML (go.yaml.in/yaml/v3) and must be a mapping (or empty);
//     a key given twice is an error, as yaml.v3 reports it.
//   - Errors are *config.FileError with the file and the line in the file
//     (the block's own line numbers shifted by the opening line), so every
//     config-like error in pincer reads FILE:LINE.
//
// List is the tolerant list type of fields such as allowed-tools: a YAML list,
// or one string of names separated by commas and/or spaces (spaces inside
// parentheses are kept: "Bash(git add:*), Read").
package frontmatter

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"pincer/core/config"
)

// Doc is a parsed file: its frontmatter (nil Node when it had none) and body.
type Doc struct {
	File string // the path errors name
	// Node is the frontmatter's mapping node (nil: no frontmatter, or an empty
	// block).
	Node *yaml.Node
	// Body is the text after the closing line (the whole file without
	// frontmatter), with a leading BOM dropped.
	Body string
	// BodyLine is the 1-based line of the file the body starts on.
	BodyLine int
	// offset is the file line of the block's first line, minus one.
	offset int
}

// HasFrontmatter reports whether the file opened with a `---` block.
func (d Doc) HasFrontmatter() bool { return d.BodyLine > 1 }

// Options adjust Parse to a file kind's habits.
type Options struct {
	// TextKeys are top-level keys whose one-line value is text as written,
	// never YAML: Claude Code's `argument-hint: [file] [focus]` (YAML would
	// read a list, or fail) is the string "[file] [focus]". A value that
	// opens with a quote or a block marker (| >) is left to YAML.
	TextKeys []string
}

// Parse splits data (the file's bytes, named file in errors) into frontmatter
// and body and parses the frontmatter. Errors: *config.FileError (an unclosed
// block, YAML that does not parse, a block that is not a mapping, a key twice).
func Parse(file string, data []byte) (Doc, error) { return ParseWith(file, data, Options{}) }

// ParseWith is Parse with opts.
func ParseWith(file string, data []byte, opts Options) (Doc, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	d := Doc{File: file, BodyLine: 1}
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) == 0 || !isFence(lines[0], false) {
		d.Body = string(data)
		return d, nil
	}
	end := -1
	for i := 1; i < len(lines); i++ {
		if isFence(lines[i], true) {
			end = i
			break
		}
	}
	if end < 0 {
		return Doc{}, &config.FileError{Path: file, Line: 1, Err: errors.New("frontmatter opened with --- is never closed (no line of --- after it)")}
	}
	block := strings.Join(textKeys(lines[1:end], opts.TextKeys), "")
	d.Body = strings.Join(lines[end+1:], "")
	d.BodyLine = end + 2
	d.offset = 1
	if strings.TrimSpace(block) == "" {
		return d, nil
	}
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(block), &root); err != nil {
		return Doc{}, d.yamlError(err)
	}
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		n := root.Content[0]
		if n.Kind != yaml.MappingNode {
			return Doc{}, &config.FileError{Path: file, Line: n.Line + d.offset, Err: fmt.Errorf("frontmatter must be a mapping of keys to values, not %s", kindName(n))}
		}
		d.Node = n
	}
	return d, nil
}

// textKeys rewrites the top-level lines of keys as single-quoted YAML
// strings of their values (Options.TextKeys); line numbers stay.
func textKeys(lines, keys []string) []string {
	if len(keys) == 0 {
		return lines
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l
		for _, k := range keys {
			rest, ok := strings.CutPrefix(l, k+":")
			if !ok {
				continue
			}
			v := strings.TrimSpace(rest)
			if v == "" || strings.ContainsAny(v[:1], `'"|>`) {
				break
			}
			eol := l[len(strings.TrimRight(l, "\r\n")):]
			out[i] = k + ": '" + strings.ReplaceAll(v, "'", "''") + "'" + eol
		}
	}
	return out
}

// isFence reports whether line is the opening `---` (closing: `---` or `...`).
func isFence(line string, closing bool) bool {
	t := strings.TrimRight(line, " \t\r\n")
	return t == "---" || closing && t == "..."
}

// Decode decodes the frontmatter into v (a pointer to a struct with yaml
// tags); no frontmatter leaves v as it is. A value of the wrong type is a
// *config.FileError naming its line and key.
func (d Doc) Decode(v any) error {
	if d.Node == nil {
		return nil
	}
	if err := d.Node.Decode(v); err != nil {
		return d.yamlError(err)
	}
	return nil
}

// Keys returns the frontmatter's keys in file order.
func (d Doc) Keys() []string {
	if d.Node == nil {
		return nil
	}
	var keys []string
	for i := 0; i+1 < len(d.Node.Content); i += 2 {
		keys = append(keys, d.Node.Content[i].Value)
	}
	return keys
}

// Line returns the file line of key's value (0: no such key).
func (d Doc) Line(key string) int {
	if d.Node == nil {
		return 0
	}
	for i := 0; i+1 < len(d.Node.Content); i += 2 {
		if d.Node.Content[i].Value == key {
			return d.Node.Content[i+1].Line + d.offset
		}
	}
	return 0
}

// Errorf is a *config.FileError at key's line in the file (the file alone
// when key is absent), for a checker of decoded values.
func (d Doc) Errorf(key, format string, a ...any) error {
	return &config.FileError{Path: d.File, Line: d.Line(key), Key: key, Err: fmt.Errorf(format, a...)}
}

// yamlError turns yaml.v3's "yaml: line N: ..." (and a TypeError's list of
// them) into a FileError on the file's line.
func (d Doc) yamlError(err error) error {
	var te *yaml.TypeError
	msg := err.Error()
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	line := 0
	if n, rest, ok := cutLine(msg); ok {
		line, msg = n+d.offset, rest
	}
	return &config.FileError{Path: d.File, Line: line, Err: errors.New(msg)}
}

// cutLine splits "line N: rest".
func cutLine(msg string) (int, string, bool) {
	var n int
	if !strings.HasPrefix(msg, "line ") {
		return 0, msg, false
	}
	i := strings.Index(msg, ":")
	if i < 0 {
		return 0, msg, false
	}
	if _, err := fmt.Sscanf(msg[len("line "):i], "%d", &n); err != nil {
		return 0, msg, false
	}
	return n, strings.TrimSpace(msg[i+1:]), true
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return "a single value"
	case yaml.AliasNode:
		return "an alias"
	}
	return "this"
}
