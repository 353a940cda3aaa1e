package memory

import (
	"strings"
)

// indexLine is the index line of a memory file: "- [Name](LINK) — description",
// LINK the file relative to the index (indexPlace). Name and description
// are one line (OneLine); the name holds no bracket (CheckName), so a line
// cannot be made to link elsewhere or to hold a second line.
func indexLine(name, link, description string) string {
	line := "- [" + name + "](" + link + ")"
	if d := OneLine(description, MaxDescriptionLen); d != "" {
		line += " — " + d
	}
	return line
}

// linkOf is the file an index line links to ("stem.md", "memory/stem.md"),
// "" for a line that is not an index line (a heading, the person's text).
func linkOf(line string) string {
	if !strings.HasPrefix(line, "- [") {
		return ""
	}
	_, rest, ok := strings.Cut(line, "](")
	if !ok {
		return ""
	}
	link, _, ok := strings.Cut(rest, ")")
	if !ok || strings.Contains(link, "..") || !strings.HasSuffix(link, ".md") {
		return ""
	}
	return link
}

// withLine is index text with the line linking to link replaced by line
// ("" removes it; a link with no line gets it appended). Every other line is kept as it is.
func withLine(index, link, line string) string {
	var out []string
	done := false
	for _, l := range strings.Split(strings.TrimRight(index, "\n"), "\n") {
		if linkOf(l) == link {
			if line != "" && !done {
				out = append(out, line)
			}
			done = true
			continue
		}
		out = append(out, l)
	}
	if !done && line != "" {
		out = append(out, line)
	}
	text := strings.TrimLeft(strings.Join(out, "\n"), "\n")
	if text == "" {
		return ""
	}
	return text + "\n"
}
