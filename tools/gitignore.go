package tools

import (
	"bufio"
	"bytes"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// ParseGitignore parses the text of a .gitignore file as git reads it:
// one pattern per line (a trailing CR dropped), blank lines and "#"
// comments skipped. domain is the path, from the walk's root, of the
// directory holding the file (nil at the root): its patterns match only
// beneath it. Shared by Grep/Glob's walk and core/checkpoint's scan.
func ParseGitignore(data []byte, domain []string) []gitignore.Pattern {
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}
