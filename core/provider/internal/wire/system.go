package wire

import "strings"

// DynamicMarker is the line the prompt package puts between the static part of a
// system prompt (the same on every turn and session: cacheable) and its dynamic part
// (date, working directory, git status...). It must stand alone on its line.
const DynamicMarker = "<!-- pincer:dynamic -->"

// SplitSystem splits a system prompt at the first line that is exactly DynamicMarker
// (a trailing CR is tolerated). static is the text before that line, dynamic the text
// after it; the newline that ends the static part is dropped, and so is the marker
// line with its own line end. Without a marker the whole text is static.
func SplitSystem(text string) (static, dynamic string, found bool) {
	rest := text
	offset := 0
	for {
		line, after, more := strings.Cut(rest, "\n")
		if strings.TrimSuffix(line, "\r") == DynamicMarker {
			static = strings.TrimSuffix(strings.TrimSuffix(text[:offset], "\n"), "\r")
			if more {
				dynamic = after
			}
			return static, dynamic, true
		}
		if !more {
			return text, "", false
		}
		offset += len(line) + 1
		rest = after
	}
}

// JoinSystem returns a system prompt with the marker line removed (the text as if the
// line had never been there): for providers whose prompt caching is automatic and
// needs no boundary.
func JoinSystem(text string) string {
	static, dynamic, found := SplitSystem(text)
	switch {
	case !found:
		return text
	case static == "":
		return dynamic
	case dynamic == "":
		return static
	}
	return static + "\n" + dynamic
}
