package mcp

import (
	"io"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A stdio server that fails usually says why on its stderr ("boom", a missing
// module, a bad token): its failure's reason carries the last lines it wrote
// since this start (cut, with terminal controls removed) and the log file that
// has all of it, as Claude Code's `claude mcp list` points at its logs.

// Bounds of the stderr quoted in a reason.
const (
	stderrTailBytes = 4 << 10 // read at most this much from the log's end
	stderrTailLines = 3
	stderrTailChars = 300
)

// stderrNote is "; stderr: LINES (log: PATH)", "; log: PATH" when the server
// wrote nothing, "" for no stdio process or no log.
func (p *stdioProcess) stderrNote() string {
	if p == nil || p.logPath == "" {
		return ""
	}
	tail := stderrTail(p.logPath, p.logStart)
	if tail == "" {
		return "; log: " + p.logPath
	}
	return "; stderr: " + tail + " (log: " + p.logPath + ")"
}

// stderrTail is the last lines written to the log at path after offset start
// (pincer's own "--- " marker lines left out), joined with " | ", without
// control characters and escape sequences, cut to stderrTailChars with "…".
func stderrTail(path string, start int64) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() <= start {
		return ""
	}
	from := max(start, fi.Size()-stderrTailBytes)
	buf, err := io.ReadAll(io.NewSectionReader(f, from, fi.Size()-from))
	if err != nil {
		return ""
	}
	var lines []string
	for _, l := range strings.Split(string(buf), "\n") {
		l = cleanLine(l)
		if l == "" || strings.HasPrefix(l, "--- ") {
			continue
		}
		lines = append(lines, l)
	}
	if len(lines) > stderrTailLines {
		lines = lines[len(lines)-stderrTailLines:]
	}
	out := strings.Join(lines, " | ")
	if utf8.RuneCountInString(out) > stderrTailChars {
		r := []rune(out)
		out = string(r[len(r)-stderrTailChars+1:])
		out = "…" + out
	}
	return out
}

// cleanLine is l without ANSI escape sequences (ESC [ ... final byte, and
// other ESC X pairs), control characters and invalid UTF-8, trimmed.
func cleanLine(l string) string {
	var b strings.Builder
	for i := 0; i < len(l); {
		c := l[i]
		if c == 0x1b {
			i++
			if i < len(l) && l[i] == '[' {
				i++
				for i < len(l) && (l[i] < 0x40 || l[i] > 0x7e) {
					i++
				}
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(l[i:])
		i += n
		switch {
		case r == utf8.RuneError && n == 1:
		case r == '\t':
			b.WriteByte(' ')
		case unicode.IsControl(r) || !unicode.IsPrint(r) && r != ' ':
		default:
			b.WriteRune(r)
		}
	}
	return strings.TrimSpace(b.String())
}
