package permission

import (
	"fmt"
	"os"
)

// Hidden reads (issue 12, Found 3). A read outside the workspace asks and,
// approved, runs (as Claude Code's reads outside its working directories) —
// except where the sandbox hides a path from every command: the credentials
// locations below the home directory (the table sandbox.HomeSecrets, with
// the XDG directories honoured: secretLocations) and pincer's own
// configuration, data and run directories (sandbox.PincerDirs: the encrypted
// secrets and their key, the store, the daemon's socket and token). A file
// tool never reads those, in any mode and whatever an allow rule says: the call
// is denied up front, never asked, so what a person is asked is always what can
// run. A directory added with --add-dir that itself lies in such a location is
// the one explicit way in (secretPathIn).

// hiddenRead denies a read-kind call (Read, Glob, Grep, ...) whose path is a
// hidden location or lies in one (symlinks resolved), or — for a search outside
// the workspace — a directory holding an existing hidden location (a Grep of
// the home directory would reach ~/.ssh).
func hiddenRead(in Input) (Decision, bool) {
	if in.Kind != KindRead {
		return Decision{}, false
	}
	for _, p := range in.Paths {
		r := in.resolvePath(p)
		if secretPathIn(p, in.Home, in.AddedDirs) || secretPathIn(r, in.Home, in.AddedDirs) {
			return Decision{Behavior: Deny, Reason: fmt.Sprintf("%s of %s was denied: it is a credentials location or pincer's own data, which the sandbox hides from every command; pincer's file tools never read it, in any mode (ask the user to look at it, or to add it with --add-dir)",
				in.Tool, p), By: "protected"}, true
		}
		if allInside([]string{r}, in.roots()...) {
			continue
		}
		if h, ok := holdsHidden(r, in.Home, in.AddedDirs); ok {
			return Decision{Behavior: Deny, Reason: fmt.Sprintf("%s of %s was denied: it holds %s, a credentials location or pincer's own data that pincer's file tools never read; search a narrower directory",
				in.Tool, p, h), By: "protected"}, true
		}
	}
	return Decision{}, false
}

// hiddenLocations are the absolute locations secretLocation covers, for home.
func hiddenLocations(home string) []string {
	out := secretLocations(home)
	for _, u := range userProtected {
		if u.why == whyUserConfig {
			out = append(out, u.dir)
		}
	}
	return append(out, pincerDirs(home)...)
}

// holdsHidden returns an existing hidden location strictly below dir (one not
// inside an added directory, which was an explicit grant). It looks at the file
// system (os.Lstat) only for those few candidate paths.
func holdsHidden(dir, home string, added []string) (string, bool) {
	for _, h := range hiddenLocations(home) {
		if h == dir || !inside(h, dir) || !secretPathIn(h, home, added) {
			continue
		}
		if _, err := os.Lstat(h); err == nil {
			return h, true
		}
	}
	return "", false
}
