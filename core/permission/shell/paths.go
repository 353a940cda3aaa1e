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
	if p == "/" {
		return "the root directory", true
	}
	if rootOnly {
		return "", false
	}
	home := e.home()
	ws := cleanAbs(e.Workspace)
	switch {
	case p == home:
		return "the home directory", true
	case ws != "" && p == ws:
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
