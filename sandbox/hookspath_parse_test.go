package sandbox

import (
	"slices"
	"testing"
)

// TestParseGitHooksReadFiles: the files git may read for every command are
// the excludes and attributes files and every include's target, an
// includeIf whose condition does not hold now too (red team r21b B1: one
// that came to hold mid-session made every confined git call die), "~/"
// from the home and a relative one from its config file's directory.
func TestParseGitHooksReadFiles(t *testing.T) {
	out := "file:/h/.gitconfig\x00core.excludesfile\n~/.gitignore_global\x00" +
		"file:/h/.gitconfig\x00include.path\n~/.gitconfig.local\x00" +
		"file:/h/.gitconfig.local\x00user.name\nMe\x00" +
		"file:/h/.gitconfig\x00includeif.onbranch:feat.path\nfeat.inc\x00" +
		"file:/h/.gitconfig\x00includeif.gitdir:~/work/.path\n/etc/work.inc\x00" +
		"file:.git/config\x00core.attributesfile\nattrs\x00" +
		"command line:\x00include.path\n/cmd.inc\x00"
	g := parseGitHooks(out, "/w", "/h")
	want := []string{"/h/.gitignore_global", "/w/attrs", "/h/feat.inc", "/etc/work.inc", "/cmd.inc"}
	for _, w := range want {
		if !slices.Contains(g.ReadFiles, w) {
			t.Errorf("ReadFiles %v lacks %s", g.ReadFiles, w)
		}
	}
	if slices.Contains(g.ReadFiles, "/h/.gitconfig.local") {
		t.Errorf("ReadFiles %v repeats a config file git read (ConfigFiles %v)", g.ReadFiles, g.ConfigFiles)
	}
	if !slices.Contains(g.ConfigFiles, "/h/.gitconfig.local") {
		t.Errorf("ConfigFiles %v lacks the active include", g.ConfigFiles)
	}
}
