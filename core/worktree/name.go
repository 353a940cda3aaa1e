package worktree

import (
	"fmt"
	"strings"
)

// maxName is the longest name, in bytes.
const maxName = 64

// ValidName returns nil when name may name a worktree: 1 to 64 bytes of
// ASCII letters, digits, '.', '_' and '-', starting with a letter or digit,
// not ending in '.' or ".lock", without "..". Such a name is one path element
// (no '/', no "..", nothing a shell or git reads as an option) and a valid
// last component of a branch name (git check-ref-format), so BranchPrefix+name
// is a branch and Root/PROJECT/name a directory of its own.
func ValidName(name string) error {
	bad := func(why string) error { return fmt.Errorf("worktree name %q: %s", name, why) }
	switch {
	case name == "":
		return bad("empty")
	case len(name) > maxName:
		return bad(fmt.Sprintf("longer than %d bytes", maxName))
	case !isAlnum(name[0]):
		return bad("must start with a letter or digit")
	case strings.Contains(name, ".."):
		return bad(`must not contain ".."`)
	case strings.HasSuffix(name, ".") || strings.HasSuffix(name, ".lock"):
		return bad(`must not end in "." or ".lock"`)
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !isAlnum(c) && c != '.' && c != '_' && c != '-' {
			return bad("only letters, digits, '.', '_' and '-' may name a worktree")
		}
	}
	return nil
}

// isAlnum reports whether c is an ASCII letter or digit.
func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
