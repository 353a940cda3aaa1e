package tools

import (
	"fmt"
	"regexp"
	"strings"
)

// The apply_patch format, as Codex's apply_patch tool defines it:
//
//	*** Begin Patch
//	*** Add File: PATH        then lines "+TEXT" (the new file's lines)
//	*** Delete File: PATH
//	*** Update File: PATH     then optionally "*** Move to: NEWPATH", then chunks:
//	@@ [CONTEXT]              a chunk; CONTEXT (optional) is one line to seek first
//	 TEXT / -TEXT / +TEXT     a context, removed or added line
//	*** End of File           (optional, ends a chunk) the chunk is at the file's end
//	*** End Patch
//
// Parsing is lenient as Codex's: markers may carry surrounding whitespace, the
// first chunk of an Update may omit its "@@", blank lines between chunks are
// skipped, and the whole patch may be wrapped in a heredoc (<<'EOF' ... EOF, or
// apply_patch <<'EOF' ... EOF as a shell would be given it).

const (
	patchBegin     = "*** Begin Patch"
	patchEnd       = "*** End Patch"
	patchAdd       = "*** Add File: "
	patchDelete    = "*** Delete File: "
	patchUpdate    = "*** Update File: "
	patchMoveTo    = "*** Move to: "
	patchEOF       = "*** End of File"
	patchContext   = "@@ "
	patchContextNo = "@@"
)

// patchHunkKind is the operation of one file hunk of a patch.
type patchHunkKind int

const (
	hunkAdd patchHunkKind = iota
	hunkDelete
	hunkUpdate
)

// patchHunk is one file operation of a patch: the path as the patch writes it,
// the Move target of an Update ("" for none), an Add's content (every "+" line
// followed by "\n") and an Update's chunks in order.
type patchHunk struct {
	kind     patchHunkKind
	path     string
	movePath string
	contents string
	chunks   []patchChunk
	line     int // the line of the hunk's header in the patch, 1-based
}

// patchChunk is one "@@" section of an Update: an optional context line to
// seek before it, the lines it expects (context and removed) and the lines
// it puts there (context and added), and whether it must sit at the file's end.
type patchChunk struct {
	context   string
	hasCtx    bool
	oldLines  []string
	newLines  []string
	endOfFile bool
}

// patchParseError is a patch that does not parse, with Codex's wording:
// "Invalid patch: ..." for the boundaries, "Invalid patch hunk on line N: ..."
// for a hunk (N counting the patch's lines from 1 at "*** Begin Patch").
type patchParseError struct {
	line int // 0: the patch as a whole
	msg  string
}

func (e *patchParseError) Error() string {
	if e.line == 0 {
		return "Invalid patch: " + e.msg
	}
	return fmt.Sprintf("Invalid patch hunk on line %d: %s", e.line, e.msg)
}

// heredocStart matches the first line of a heredoc-wrapped patch: <<EOF,
// <<'EOF', <<"EOF", optionally after "apply_patch" or "applypatch".
var heredocStart = regexp.MustCompile(`^(?:(?:apply_patch|applypatch)\s*)?<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)(['"]?)$`)

// parsePatch parses the text of an apply_patch call into its hunks, in order.
// The errors are *patchParseError. An empty patch (Begin and End only) parses
// to no hunks; applying it is refused ("No files were modified.").
func parsePatch(text string) ([]patchHunk, error) {
	lines := splitPatchLines(strings.TrimSpace(text))
	body, err := patchBody(lines)
	if err != nil {
		return nil, err
	}
	var hunks []patchHunk
	line := 2
	for len(body) > 0 {
		h, n, err := parseHunk(body, line)
		if err != nil {
			return nil, err
		}
		hunks = append(hunks, h)
		line += n
		body = body[n:]
	}
	return hunks, nil
}

// splitPatchLines splits text into lines as Rust's str::lines does: on "\n",
// one trailing "\r" dropped from each line, no empty last line for a final
// newline.
func splitPatchLines(text string) []string {
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// patchBody checks the Begin and End markers (strictly, then inside a heredoc
// wrapper) and returns the lines between them.
func patchBody(lines []string) ([]string, error) {
	body, err := strictBody(lines)
	if err == nil {
		return body, nil
	}
	if len(lines) >= 4 {
		if m := heredocStart.FindStringSubmatch(strings.TrimSpace(lines[0])); m != nil && m[1] == m[3] &&
			strings.HasSuffix(strings.TrimSpace(lines[len(lines)-1]), m[2]) {
			return strictBody(lines[1 : len(lines)-1])
		}
	}
	return nil, err
}

// strictBody checks that the first line is "*** Begin Patch" and the last
// "*** End Patch" (each trimmed) and returns the lines between.
func strictBody(lines []string) ([]string, error) {
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != patchBegin {
		return nil, &patchParseError{msg: "The first line of the patch must be '*** Begin Patch'"}
	}
	if len(lines) < 2 || strings.TrimSpace(lines[len(lines)-1]) != patchEnd {
		return nil, &patchParseError{msg: "The last line of the patch must be '*** End Patch'"}
	}
	return lines[1 : len(lines)-1], nil
}

// parseHunk parses the file hunk at the start of lines (line is its number in
// the patch) and returns it with the number of lines it took.
func parseHunk(lines []string, line int) (patchHunk, int, error) {
	first := strings.TrimSpace(lines[0])
	switch {
	case strings.HasPrefix(first, patchAdd):
		h := patchHunk{kind: hunkAdd, path: hunkPath(first, patchAdd), line: line}
		n := 1
		var b strings.Builder
		for _, l := range lines[1:] {
			text, ok := strings.CutPrefix(l, "+")
			if !ok {
				break
			}
			b.WriteString(text)
			b.WriteByte('\n')
			n++
		}
		h.contents = b.String()
		return h, n, nil
	case strings.HasPrefix(first, patchDelete):
		return patchHunk{kind: hunkDelete, path: hunkPath(first, patchDelete), line: line}, 1, nil
	case strings.HasPrefix(first, patchUpdate):
		return parseUpdate(lines, line, hunkPath(first, patchUpdate))
	}
	return patchHunk{}, 0, &patchParseError{line: line, msg: fmt.Sprintf(
		"'%s' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'", first)}
}

// hunkPath is the path of a hunk header: what follows marker, blanks around
// it trimmed (Codex trims the header line; spaces after "Add File: " are
// not part of the name either), so the path the guard, the permission
// request and the summary judge is the one written: "*** Add File:
// .git/hooks/pre-commit" is .git/hooks/pre-commit.
func hunkPath(header, marker string) string {
	return strings.TrimSpace(strings.TrimPrefix(header, marker))
}

// parseUpdate parses an Update hunk: its optional Move line and its chunks,
// up to the next line starting with '*'.
func parseUpdate(lines []string, line int, path string) (patchHunk, int, error) {
	h := patchHunk{kind: hunkUpdate, path: path, line: line}
	rest, n := lines[1:], 1
	if len(rest) > 0 {
		if to, ok := strings.CutPrefix(rest[0], patchMoveTo); ok {
			h.movePath = strings.TrimSpace(to)
			rest, n = rest[1:], n+1
		}
	}
	for len(rest) > 0 {
		if strings.TrimSpace(rest[0]) == "" {
			rest, n = rest[1:], n+1
			continue
		}
		if strings.HasPrefix(rest[0], "*") {
			break
		}
		c, used, err := parseChunk(rest, line+n, len(h.chunks) == 0)
		if err != nil {
			return patchHunk{}, 0, err
		}
		h.chunks = append(h.chunks, c)
		rest, n = rest[used:], n+used
	}
	if len(h.chunks) == 0 {
		return patchHunk{}, 0, &patchParseError{line: line, msg: fmt.Sprintf("Update file hunk for path '%s' is empty", path)}
	}
	return h, n, nil
}

// parseChunk parses one chunk at the start of lines (line is its number);
// the first chunk of a hunk may start without "@@".
func parseChunk(lines []string, line int, mayOmitHeader bool) (patchChunk, int, error) {
	var c patchChunk
	start := 1
	switch {
	case lines[0] == patchContextNo:
	case strings.HasPrefix(lines[0], patchContext):
		c.context, c.hasCtx = strings.TrimPrefix(lines[0], patchContext), true
	case mayOmitHeader:
		start = 0
	default:
		return c, 0, &patchParseError{line: line, msg: fmt.Sprintf("Expected update hunk to start with a @@ context marker, got: '%s'", lines[0])}
	}
	if start >= len(lines) {
		return c, 0, &patchParseError{line: line + 1, msg: "Update hunk does not contain any lines"}
	}
	parsed := 0
	for _, l := range lines[start:] {
		if l == patchEOF {
			if parsed == 0 {
				return c, 0, &patchParseError{line: line + 1, msg: "Update hunk does not contain any lines"}
			}
			c.endOfFile = true
			parsed++
			break
		}
		if l == "" {
			c.oldLines = append(c.oldLines, "")
			c.newLines = append(c.newLines, "")
			parsed++
			continue
		}
		switch l[0] {
		case ' ':
			c.oldLines = append(c.oldLines, l[1:])
			c.newLines = append(c.newLines, l[1:])
		case '+':
			c.newLines = append(c.newLines, l[1:])
		case '-':
			c.oldLines = append(c.oldLines, l[1:])
		default:
			if parsed == 0 {
				return c, 0, &patchParseError{line: line + 1, msg: fmt.Sprintf(
					"Unexpected line found in update hunk: '%s'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)", l)}
			}
			return c, parsed + start, nil // the next chunk or hunk starts here
		}
		parsed++
	}
	return c, parsed + start, nil
}
