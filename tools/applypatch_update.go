package tools

import (
	"fmt"
	"sort"
	"strings"
)

// patchReplacement replaces n lines at start with lines.
type patchReplacement struct {
	start, n int
	lines    []string
}

// updateContent applies an Update hunk's chunks to content (a file's bytes),
// as Codex's apply_patch does: each chunk's context line, then its old lines,
// are sought (seekLines) after the previous chunk's match; a chunk without
// old lines appends at the end of the file (before a last empty line); the
// replacements are then made bottom-up, and the result ends with a newline.
// The file's encoding is kept: a UTF-8 BOM stays, and in a CRLF file
// (usesCRLF) the lines the patch brings get CRLF while untouched lines keep
// theirs. shown names the file in errors; an error names the chunk's context
// or the lines that did not match.
func updateContent(content string, chunks []patchChunk, shown string) (string, error) {
	bom := ""
	if strings.HasPrefix(content, utf8BOM) {
		bom, content = utf8BOM, content[len(utf8BOM):]
	}
	crlf := usesCRLF(content)
	lines := strings.Split(content, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	eol := func(ls []string) []string {
		if !crlf {
			return ls
		}
		out := make([]string, len(ls))
		for i, l := range ls {
			out[i] = l + "\r"
		}
		return out
	}

	var reps []patchReplacement
	at := 0
	for _, c := range chunks {
		if c.hasCtx {
			i := seekLines(lines, []string{c.context}, at, false)
			if i < 0 {
				return "", fmt.Errorf("Failed to find context '%s' in %s", c.context, shown)
			}
			at = i + 1
		}
		if len(c.oldLines) == 0 {
			ins := len(lines)
			if ins > 0 && lines[ins-1] == "" {
				ins--
			}
			reps = append(reps, patchReplacement{ins, 0, eol(c.newLines)})
			continue
		}
		pattern, repl := c.oldLines, c.newLines
		found := seekLines(lines, pattern, at, c.endOfFile)
		if found < 0 && pattern[len(pattern)-1] == "" {
			// The last empty line stands for the file's final newline: retry without it.
			pattern = pattern[:len(pattern)-1]
			if len(repl) > 0 && repl[len(repl)-1] == "" {
				repl = repl[:len(repl)-1]
			}
			found = seekLines(lines, pattern, at, c.endOfFile)
		}
		if found < 0 {
			return "", fmt.Errorf("Failed to find expected lines in %s:\n%s", shown, strings.Join(c.oldLines, "\n"))
		}
		reps = append(reps, patchReplacement{found, len(pattern), eol(repl)})
		at = found + len(pattern)
	}

	sort.SliceStable(reps, func(i, j int) bool { return reps[i].start < reps[j].start })
	for i := len(reps) - 1; i >= 0; i-- {
		r := reps[i]
		tail := append([]string(nil), lines[r.start+r.n:]...)
		lines = append(append(lines[:r.start], r.lines...), tail...)
	}
	if len(lines) == 0 || lines[len(lines)-1] != "" {
		if crlf && len(lines) > 0 && !strings.HasSuffix(lines[len(lines)-1], "\r") {
			lines[len(lines)-1] += "\r"
		}
		lines = append(lines, "")
	}
	return bom + strings.Join(lines, "\n"), nil
}
