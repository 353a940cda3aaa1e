package permission

import (
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Path patterns of Read, Edit and the other file rules follow the gitignore
// specification with Claude Code's four anchors:
//
//	//path   absolute:                  Read(//etc/**)        -> /etc/**
//	~/path   from the home directory:   Read(~/.ssh/**)       -> $HOME/.ssh/**
//	/path    from the project root:     Edit(/src/**/*.ts)    -> <workspace>/src/**/*.ts
//	./path   from the current directory: Read(./secrets/**)   -> <cwd>/secrets/**
//	path     from the current directory, gitignore-style: a pattern with no '/'
//	         (but a trailing one) matches at any depth: Read(*.env) matches
//	         <cwd>/.env and <cwd>/a/b/.env
//
// Pincer's choice where Claude Code leaves it open: an explicit `./` anchors the
// pattern to the current directory itself (`Read(./.env)` is <cwd>/.env only),
// like gitignore's leading slash. As in gitignore, a pattern that matches a
// directory matches everything below it (`Edit(/build)` covers /build/x/y), and
// `*` does not cross '/', `**` does. Paths are compared as given: the caller
// resolves symlinks (the protected-path and inside-the-workspace checks resolve
// them again).

// anchor is the base directory kind of a path pattern.
type anchor int

const (
	anchorCwd     anchor = iota // bare: gitignore-relative to the cwd
	anchorCwdDot                // ./: anchored at the cwd
	anchorRoot                  // //: the filesystem root
	anchorHome                  // ~/
	anchorProject               // /: the workspace
)

// pathAnchor splits a path specifier into its anchor and the pattern relative to
// the anchor's directory ("**" when the specifier names the directory itself).
func pathAnchor(spec string) (anchor, string) {
	a, rest := anchorCwd, spec
	switch {
	case strings.HasPrefix(spec, "//"):
		a, rest = anchorRoot, spec[2:]
	case spec == "~" || strings.HasPrefix(spec, "~/"):
		a, rest = anchorHome, strings.TrimPrefix(strings.TrimPrefix(spec, "~"), "/")
	case strings.HasPrefix(spec, "/"):
		a, rest = anchorProject, spec[1:]
	case spec == "." || strings.HasPrefix(spec, "./"):
		a, rest = anchorCwdDot, strings.TrimPrefix(strings.TrimPrefix(spec, "."), "/")
	}
	rest = strings.TrimRight(rest, "/")
	if rest == "" {
		return a, "**"
	}
	if a == anchorCwd && !strings.Contains(rest, "/") {
		rest = "**/" + rest
	}
	return a, rest
}

// pathEnv is what the anchors resolve against.
type pathEnv struct {
	workspace, cwd, home string
}

func envOf(in Input) pathEnv {
	return pathEnv{workspace: in.Workspace, cwd: in.Cwd, home: in.Home}
}

// base returns the directory an anchor stands for; "" when unknown.
func (e pathEnv) base(a anchor) string {
	switch a {
	case anchorRoot:
		return "/"
	case anchorHome:
		return e.home
	case anchorProject:
		return e.workspace
	}
	return e.cwd
}

// matchPath reports whether the absolute path is matched by the path specifier
// spec: the path itself or one of its parent directories below the anchor.
func matchPath(spec, path string, env pathEnv) bool {
	a, pat := pathAnchor(spec)
	base := env.base(a)
	if base == "" || !filepath.IsAbs(path) {
		return false
	}
	rel, err := filepath.Rel(base, filepath.Clean(path))
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return false
	}
	if rel == "." {
		return pat == "**"
	}
	rel = filepath.ToSlash(rel)
	for {
		if ok, _ := doublestar.Match(pat, rel); ok {
			return true
		}
		i := strings.LastIndexByte(rel, '/')
		if i < 0 {
			return false
		}
		rel = rel[:i]
	}
}

// escapePath is the specifier that matches exactly the absolute path p (and, as
// any directory pattern, what lies below it): the `//` anchor and glob
// metacharacters escaped.
func escapePath(p string) string {
	var b strings.Builder
	b.WriteString("/")
	for _, c := range p {
		if strings.ContainsRune(`*?[]{}\`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}
