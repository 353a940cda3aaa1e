package memory

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"pincer/core/skill"
)

// Limits of a proposal (bytes).
const (
	MaxNameLen        = 64
	MaxDescriptionLen = 300
	// MaxContentBytes caps a memory file or SKILL.md (64 KB): memory is an
	// index of small notes, not a store of documents.
	MaxContentBytes = 64 << 10
)

// reservedNames are file stems a memory may not take: the index files (on a
// case-insensitive file system memory.md is MEMORY.md).
var reservedNames = []string{"memory", "user"}

// CheckName refuses a memory name that is empty, too long, or holds a byte
// other than a letter, digit, space, '-', '_' or '.' (so no path separator,
// no "..", no newline), starts with '.', or names an index file.
func CheckName(name string) error {
	if name == "" || len(name) > MaxNameLen {
		return fmt.Errorf("memory name %q: 1 to %d bytes", name, MaxNameLen)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == ' ' || c == '-' || c == '_' || c == '.') {
			return fmt.Errorf("memory name %q: only letters, digits, spaces, '-', '_' and '.'", name)
		}
	}
	stem := FileStem(name)
	switch {
	case strings.HasPrefix(name, ".") || strings.Contains(name, ".."):
		return fmt.Errorf("memory name %q may not start with '.' or hold \"..\"", name)
	case stem == "" || slices.Contains(reservedNames, stem):
		return fmt.Errorf("memory name %q is reserved", name)
	}
	return nil
}

// FileStem is a memory name's file name without ".md": lower case, runs of
// spaces as one '-', trimmed of '-'.
func FileStem(name string) string {
	return strings.Trim(strings.Join(strings.Fields(strings.ToLower(name)), "-"), "-")
}

// CheckSkillName refuses a skill name core/skill would not load (one
// segment: a letter, then letters, digits, '-', '_').
func CheckSkillName(name string) error {
	if strings.Contains(name, ":") {
		return fmt.Errorf("skill name %q: no ':' (a learned skill is not namespaced)", name)
	}
	return skill.CheckName(name)
}

// OneLine is s as one line of plain text: every run of white space
// (newlines included) one space, control and format characters dropped,
// cut to max bytes at a rune boundary. What an index line or a frontmatter
// field holds, so neither can be made to hold a second line.
func OneLine(s string, max int) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return ' '
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError:
			return -1
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	for len(s) > max {
		_, n := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-n]
	}
	return s
}

// PlainText is s as a file's text a terminal shows as written: tabs and
// newlines kept (a CR dropped), every other control character (C0, DEL, C1:
// the escape sequences that set a title, write the clipboard, move the
// cursor) and the bidirectional controls (U+202A–U+202E, U+2066–U+2069,
// U+200E, U+200F, U+061C: text shown in another order than stored) dropped;
// other format characters (a ZWJ in an emoji) stay. A candidate's body and a
// person's edit are written so (red team r18, 2nd round: a memory file read
// with cat set the terminal's title).
func PlainText(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case unicode.IsControl(r) || r == utf8.RuneError, bidiControl(r):
			return -1
		}
		return r
	}, s)
}

// bidiControl reports whether r reorders the text around it.
func bidiControl(r rune) bool {
	return r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 || r == 0x200E || r == 0x200F || r == 0x061C
}

// checkType refuses a memory type other than Types.
func checkType(t string) error {
	if !slices.Contains(Types, t) {
		return fmt.Errorf("memory type %q: one of %s", t, strings.Join(Types, ", "))
	}
	return nil
}

var errNoBody = errors.New("memory has no content")
