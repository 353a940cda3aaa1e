package permission

import (
	"path/filepath"
	"strings"

	"pincer/sandbox"
)

// gitDirProtected reports whether writing path (absolute, clean, symlinks
// already resolved) changes git's executable configuration of a git
// directory under another name than .git (red team F1): a bare repository
// (remote.git/config), the git dir a `.git` file or symlink names
// (gd/hooks/pre-commit, .repo/projects/p.git/config). Each ancestor of path —
// up to the innermost of roots holding it, else up to / — that is a git dir by
// git's literal facts (sandbox.IsGitDir: lstat only, nothing followed) is
// matched as .git is (gitProtected on the components below it). The cost is
// one lstat per ancestor without a HEAD.
func gitDirProtected(path string, roots []string) bool {
	if path == "" || !filepath.IsAbs(path) {
		return false
	}
	path = filepath.Clean(path)
	stop := "/"
	for _, r := range roots {
		if r = filepath.Clean(r); r != "" && inside(path, r) && len(r) > len(stop) {
			stop = r
		}
	}
	for dir := path; ; dir = filepath.Dir(dir) {
		if sandbox.IsGitDir(dir) {
			rest := strings.TrimPrefix(strings.TrimPrefix(path, dir), "/")
			var c []string
			if rest != "" {
				c = strings.Split(strings.ToLower(rest), "/")
			}
			if gitProtected(c) {
				return true
			}
		}
		if dir == stop || dir == "/" {
			return false
		}
	}
}
