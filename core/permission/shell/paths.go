package shell

import (
	"path"
	"strings"
)

// systemDirs are top-level directories whose recursive deletion is denied.
var systemDirs = map[string]bool{
	"/bin": true, "/boot": true, "/dev": true, "/etc": true, "/home": true, "/lib": true,
	"/lib32": true, "/lib64": true, "/opt": true, "/proc": true, "/root": true, "/sbin": true,
	"/srv": true, "/sys": true, "/usr": true, "/var": true, "/Users": true, "/System": true,
	"/Library": true, "/Applications": true, "/private": true,
}

// protected reports whether w names a directory that must never be
// removed (or, rootOnly, whether it names /), with a description.
func (e Env) protected(w word, rootOnly bool) (string, bool) {
	p, ok := e.resolve(w)
	if !ok {
		return "", false
	}
	if rootOnly {
		if p == "/" {
			return "the root directory", true
		}
		return "", false
	}
	return e.protectedPath(p, false)
}

// protectedPath reports whether the cleaned absolute path p is /, the
// home directory, the workspace root (unless workspaceOK), an ancestor of
// those, or a top-level system directory.
func (e Env) protectedPath(p string, workspaceOK bool) (string, bool) {
	if p == "/" {
		return "the root directory", true
	}
	home := e.home()
	ws := cleanAbs(e.Workspace)
	switch {
	case p == home:
		return "the home directory", true
	case ws != "" && p == ws && !workspaceOK:
		return "the workspace root", true
	case isAncestor(p, home):
		return "a parent of the home directory", true
	case ws != "" && isAncestor(p, ws):
		return "a parent of the workspace", true
	case systemDirs[p]:
		return "the system directory " + p, true
	}
	return "", false
}

// protectedCandidates lists the paths protectedPath accepts, for matching
// a glob against them.
func (e Env) protectedCandidates(workspaceOK bool) []string {
	out := []string{"/"}
	add := func(p string) {
		for p != "/" && p != "." && p != "" {
			if !contains(out, p) {
				out = append(out, p)
			}
			p = path.Dir(p)
		}
	}
	add(e.home())
	if ws := cleanAbs(e.Workspace); ws != "" {
		if workspaceOK {
			add(path.Dir(ws))
		} else {
			add(ws)
		}
	}
	for d := range systemDirs {
		out = append(out, d)
	}
	return out
}

// targetKind is what a path word resolves to statically.
type targetKind int

const (
	targetPath    targetKind = iota // a cleaned absolute path
	targetGlob                      // a cleaned absolute glob pattern (* ? [...])
	targetUnknown                   // an expansion whose value is not known
	targetNoCwd                     // a relative path with no known directory
)

// resolveTarget resolves a path word for HardDeny: like resolve, but a
// word whose only expansions are globs is a pattern, brace alternatives
// ({a,b}) are expanded, and a word with any other expansion is unknown.
func (e Env) resolveTarget(w word) []resolved {
	if !w.lit {
		if alts := braceAlternatives(w.val); alts != nil {
			var out []resolved
			for _, a := range alts {
				out = append(out, e.resolveTarget(word{val: a, src: a, lit: looksLiteral(a), approx: a})...)
			}
			return out
		}
	}
	if p, ok := e.resolve(w); ok {
		return []resolved{{p, targetPath}}
	}
	if w.lit {
		return []resolved{{"", targetNoCwd}}
	}
	s := strings.NewReplacer(`"`, "", `'`, "").Replace(w.val)
	for _, v := range []struct{ name, val string }{{"~", e.home()}, {"$HOME", e.home()}, {"${HOME}", e.home()}} {
		if rest, ok := strings.CutPrefix(s, v.name); ok && (rest == "" || rest[0] == '/') {
			s = v.val + rest
			break
		}
	}
	if strings.ContainsAny(s, "$`{~\\(") || !strings.ContainsAny(s, "*?[") {
		return []resolved{{"", targetUnknown}}
	}
	cwd := cleanAbs(e.Cwd)
	if cwd == "" {
		cwd = cleanAbs(e.Workspace)
	}
	if !strings.HasPrefix(s, "/") {
		if cwd == "" {
			return []resolved{{"", targetUnknown}}
		}
		s = cwd + "/" + s
	}
	return []resolved{{path.Clean(s), targetGlob}}
}

// resolved is one resolution of a path word.
type resolved struct {
	path string
	kind targetKind
}

// braceAlternatives expands the first {a,b,...} group of s (without
// nesting) and the groups after it; nil when s has no such group.
func braceAlternatives(s string) []string {
	i := strings.IndexByte(s, '{')
	if i < 0 {
		return nil
	}
	j := strings.IndexByte(s[i:], '}')
	if j < 0 {
		return nil
	}
	inner := s[i+1 : i+j]
	if !strings.Contains(inner, ",") || strings.ContainsAny(inner, "{$`") {
		return nil
	}
	var out []string
	for _, alt := range strings.Split(inner, ",") {
		w := s[:i] + alt + s[i+j+1:]
		if more := braceAlternatives(w); more != nil {
			out = append(out, more...)
		} else {
			out = append(out, w)
		}
	}
	return out
}

// globHits reports the protected path a glob pattern can match: the
// pattern matches it, or the pattern is DIR/* (all entries of DIR) and DIR
// is protected.
func (e Env) globHits(pattern string, workspaceOK bool) (string, bool) {
	if strings.HasSuffix(pattern, "/*") {
		if desc, ok := e.protectedPath(path.Clean(strings.TrimSuffix(pattern, "*")), workspaceOK); ok {
			return desc, true
		}
	}
	if pattern == "/*" {
		return "the root directory", true
	}
	for _, c := range e.protectedCandidates(workspaceOK) {
		if ok, _ := path.Match(pattern, c); ok {
			desc, _ := e.protectedPath(c, workspaceOK)
			return desc, true
		}
	}
	return "", false
}

// homeUnknown stands for the home directory when Env.Home is empty, so
// that ~ and $HOME are still recognised.
const homeUnknown = "/\x00home"

func (e Env) home() string {
	if h := cleanAbs(e.Home); h != "" {
		return h
	}
	return homeUnknown
}

func cleanAbs(p string) string {
	if !strings.HasPrefix(p, "/") {
		return ""
	}
	return path.Clean(p)
}

// isAncestor reports whether dir is a proper ancestor of p.
func isAncestor(dir, p string) bool {
	return dir != p && strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// resolve returns the cleaned absolute path w names. A word that is not
// literal is source text: its quotes are dropped, a leading ~, $HOME,
// ${HOME}, $PWD or ${PWD} is expanded, and a trailing * (all entries)
// stands for its directory; anything else that expands makes it
// unresolvable.
func (e Env) resolve(w word) (string, bool) {
	s := w.val
	cwd := cleanAbs(e.Cwd)
	if cwd == "" {
		cwd = cleanAbs(e.Workspace)
	}
	if !w.lit {
		s = strings.NewReplacer(`"`, "", `'`, "").Replace(s)
		for _, v := range []struct{ name, val string }{
			{"${HOME}", e.home()}, {"$HOME", e.home()}, {"~", e.home()}, {"${PWD}", cwd}, {"$PWD", cwd},
		} {
			if rest, ok := strings.CutPrefix(s, v.name); ok && (rest == "" || rest[0] == '/') && v.val != "" {
				s = v.val + rest
				break
			}
		}
		if s == "*" {
			s = "."
		} else if strings.HasSuffix(s, "/*") {
			s = strings.TrimSuffix(s, "*")
		}
		if strings.ContainsAny(s, "$`*?[{~\\(") {
			return "", false
		}
	}
	if s == "" {
		return "", false
	}
	if !strings.HasPrefix(s, "/") {
		if cwd == "" {
			return "", false
		}
		s = cwd + "/" + s
	}
	return path.Clean(s), true
}
