package permission

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/sandbox"
)

// TestHiddenHardLink: a real hard link in the workspace to ~/.ssh/id_rsa is
// denied up front, in every mode and under an allow rule, for reads and edits
// (never asked); the workspace's own multiply-linked file is not; with the
// hidden paths too big to walk (sandbox.HiddenWalkCap), a multiply-linked file
// on their device asks, in every mode (dontAsk denies it).
func TestHiddenHardLink(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	for _, v := range []string{"PINCER_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"} {
		t.Setenv(v, "")
	}
	write := func(p string) {
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	link := func(old, new string) {
		if err := os.Link(old, new); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(home, ".ssh", "id_rsa"))
	link(filepath.Join(home, ".ssh", "id_rsa"), filepath.Join(ws, "k"))
	write(filepath.Join(ws, "own"))
	link(filepath.Join(ws, "own"), filepath.Join(ws, "own2"))
	allow := RuleSet{}
	for _, r := range []string{"Read(/" + ws + "/**)", "Edit(/" + ws + "/**)"} {
		rule, err := ParseRule(r)
		if err != nil {
			t.Fatal(err)
		}
		allow = allow.Add(Allow, rule)
	}
	eval := func(mode Mode, tool, kind, path string) Decision {
		return Evaluate(mode, allow, Input{Tool: tool, Kind: kind, Paths: []string{filepath.Join(ws, path)}, Workspace: ws, Home: home})
	}
	for _, mode := range []Mode{ModeDefault, ModeAcceptEdits, ModePlan, ModeBypass, ModeDontAsk} {
		for _, c := range []struct{ tool, kind string }{{"Read", KindRead}, {"Grep", KindRead}, {"Edit", KindEdit}} {
			if d := eval(mode, c.tool, c.kind, "k"); d.Behavior != Deny || !strings.Contains(d.Reason, "hard link") {
				t.Errorf("%s %s of the hard link = %+v, want the up-front denial", mode, c.tool, d)
			}
		}
		if d := eval(mode, "Read", KindRead, "own2"); d.Behavior != Allow {
			t.Errorf("%s: Read of the workspace's own hard link = %+v", mode, d)
		}
	}
	// Past the cap: the walk stops inside ~/.ssh before it sees every file.
	for i := 0; i <= sandbox.HiddenWalkCap; i++ {
		write(filepath.Join(home, ".ssh", "many", fmt.Sprintf("f%05d", i)))
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // another set of hidden paths: a fresh walk
	for mode, want := range map[Mode]Behavior{ModeDefault: Ask, ModeBypass: Ask, ModeAcceptEdits: Ask, ModeDontAsk: Deny} {
		d := eval(mode, "Read", KindRead, "own2")
		if d.Behavior != want || !strings.Contains(d.Reason, "hard link") {
			t.Errorf("%s, past the cap: Read of a hard-linked file = %+v, want %s", mode, d, want)
		}
	}
}
