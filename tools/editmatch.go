package tools

import (
	"errors"
	"fmt"
	"strings"
)

// errSameStrings refuses an Edit that would change nothing.
var errSameStrings = errors.New("No changes to make: old_string and new_string are exactly the same.")

// errNotFound refuses an Edit whose old_string is not in the file.
var errNotFound = errors.New("String to replace not found in file. old_string must match the file exactly, including whitespace and indentation (without the line-number prefix Read adds); Read the file again to see its current content.")

// multipleMatchesError refuses an ambiguous Edit.
func multipleMatchesError(n int) error {
	return fmt.Errorf("Found %d matches of the string to replace, but replace_all is false. To replace every occurrence, set replace_all to true. To replace only one, add more surrounding lines to old_string so that it matches exactly once.", n)
}

// applyEdit replaces oldString with newString in content, exactly as Claude
// Code's Edit: one unique occurrence, or every occurrence with replaceAll. It
// returns the new content and the number of occurrences found.
//
// It keeps the file's encoding details: a UTF-8 byte order mark stays, and when
// the file uses CRLF line endings while the strings use LF (models usually send
// LF), both strings are converted to CRLF before matching and replacing (and the
// reverse for an LF file given CRLF strings); if the converted string does not
// occur, the string as given is tried. Bytes outside the replaced occurrences are
// left exactly as they were. oldString must not be empty.
func applyEdit(content, oldString, newString string, replaceAll bool) (string, int, error) {
	if oldString == newString {
		return "", 0, errSameStrings
	}
	bom := ""
	if strings.HasPrefix(content, utf8BOM) {
		bom, content = utf8BOM, content[len(utf8BOM):]
	}
	oldString = strings.TrimPrefix(oldString, utf8BOM)

	type candidate struct{ old, new string }
	var cands []candidate
	if usesCRLF(content) {
		cands = append(cands, candidate{toCRLF(oldString), toCRLF(newString)})
	} else {
		cands = append(cands, candidate{toLF(oldString), toLF(newString)})
	}
	if cands[0].old != oldString {
		cands = append(cands, candidate{oldString, newString})
	}
	for _, c := range cands {
		n := strings.Count(content, c.old)
		if n == 0 {
			continue
		}
		if n > 1 && !replaceAll {
			return "", n, multipleMatchesError(n)
		}
		limit := 1
		if replaceAll {
			limit = -1
		}
		return bom + strings.Replace(content, c.old, c.new, limit), n, nil
	}
	return "", 0, errNotFound
}

// usesCRLF reports whether most of text's line breaks are CRLF.
func usesCRLF(text string) bool {
	crlf := strings.Count(text, "\r\n")
	return crlf > 0 && crlf >= strings.Count(text, "\n")-crlf
}

// toLF turns every CRLF into LF.
func toLF(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

// toCRLF turns every line break into CRLF (without doubling existing CRs).
func toCRLF(s string) string { return strings.ReplaceAll(toLF(s), "\n", "\r\n") }
