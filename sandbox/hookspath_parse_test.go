package sandbox

import (
	"slices"
	"testing"
)

// TestParseGitHooksReadFiles: the files git may read for every command are
// the person's own config files (system and global scopes),
// the excludes and attributes files and every include's target, an
// includeIf whose condition does not hold now too (red team r21b B1: one
// that came to hold mid-session made every confined git call die), "~/"
// from the home and a relative one from its config file's directory.
func TestParseGitHooksReadFiles(t *testing.T) {
	out := "global\x00file:/h/.gitconfig\x00core.excludesfile\n~/.gitignore_global\x00" +
		"global\x00file:/h/.gitconfig\x00include.path\n~/.gitconfig.local\x00" +
		"global\x00file:/h/.gitconfig.local\x00user.name\nMe\x00" +
		"global\x00file:/h/.gitconfig\x00includeif.onbranch:feat.path\nfeat.inc\x00" +
		"system\x00file:/etc/gitconfig\x00includeif.gitdir:~/work/.path\n/etc/work.inc\x00" +
		"global\x00file:/h/.config/git/config\x00core.attributesfile\nattrs\x00" +
		// the repository's own config never widens the confined reads (red team r21c F1)
		"local\x00file:.git/config\x00includeif.onbranch:nope.path\n/h/secret\x00" +
		"local\x00file:.git/config\x00core.excludesfile\n/h/secrets-dir\x00" +
		"worktree\x00file:.git/config.worktree\x00include.path\n/h/wt\x00" +
		"command\x00command line:\x00include.path\n/cmd.inc\x00"
	g := parseGitHooks(out, "/w", "/h")
	want := []string{"/h/.gitignore_global", "/w/attrs", "/h/feat.inc", "/etc/work.inc"}
	for _, w := range want {
		if !slices.Contains(g.ReadFiles, w) {
			t.Errorf("ReadFiles %v lacks %s", g.ReadFiles, w)
		}
	}
	for _, no := range []string{"/h/secret", "/h/secrets-dir", "/h/wt", "/cmd.inc"} {
		if slices.Contains(g.ReadFiles, no) {
			t.Errorf("ReadFiles %v holds %s, which the repository's or another scope's config names", g.ReadFiles, no)
		}
	}
	// The person's own config files are read by every git call; the
	// repository's are not theirs to grant (red team r22 F1: an include.path
	// in .git/config reached ReadFiles through its ConfigFiles entry).
	for _, w := range []string{"/h/.gitconfig", "/h/.gitconfig.local", "/etc/gitconfig", "/h/.config/git/config"} {
		if n := countOf(g.ReadFiles, w); n != 1 {
			t.Errorf("ReadFiles %v holds the person's config file %s %d times, want once", g.ReadFiles, w, n)
		}
	}
	for _, no := range []string{"/w/.git/config", "/w/.git/config.worktree"} {
		if slices.Contains(g.ReadFiles, no) {
			t.Errorf("ReadFiles %v holds the repository's config file %s", g.ReadFiles, no)
		}
	}
	if !slices.Contains(g.ConfigFiles, "/h/.gitconfig.local") {
		t.Errorf("ConfigFiles %v lacks the active include", g.ConfigFiles)
	}
}

// countOf is how many times s holds v.
func countOf(s []string, v string) int {
	n := 0
	for _, e := range s {
		if e == v {
			n++
		}
	}
	return n
}
