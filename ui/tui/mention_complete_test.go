package tui

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gdamore/tcell/v2"

	"pincer/core/provider/providertest"
)

func TestCompleteMentionText(t *testing.T) {
	tree := map[string][]string{
		"":     {"README.md", "RELEASE.txt", "src/", ".git/", ".env", "go.mod"},
		"src/": {"a.go", "app/", "b.go"},
	}
	list := func(dir string) []string { return tree[dir] }
	cases := []struct {
		text, completed string
		candidates      []string
		ok              bool
	}{
		{"explain @READ", "explain @README.md ", []string{"README.md"}, true},
		{"explain @RE", "explain @RE", []string{"README.md", "RELEASE.txt"}, true},
		{"@s", "@src/", []string{"src/"}, true},
		{"look at @src/a", "look at @src/a", []string{"a.go", "app/"}, true},
		{"look at @src/b", "look at @src/b.go ", []string{"b.go"}, true},
		{"@", "@", []string{"README.md", "RELEASE.txt", "go.mod", "src/"}, true}, // no dot names unless typed
		{"@.e", "@.env ", []string{".env"}, true},
		{"(see @go", "(see @go.mod ", []string{"go.mod"}, true},
		{"@nothing", "@nothing", nil, true},
		{"mail a@b", "mail a@b", nil, false},
		{"plain words", "plain words", nil, false},
		{"@README.md and more", "@README.md and more", nil, false},
	}
	for _, c := range cases {
		completed, candidates, ok := completeMentionText(c.text, list)
		if completed != c.completed || !reflect.DeepEqual(candidates, c.candidates) || ok != c.ok {
			t.Errorf("%q: %q %q %v, want %q %q %v", c.text, completed, candidates, ok, c.completed, c.candidates, c.ok)
		}
	}
}

func TestMentionLister(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "README.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got := mentionLister(root)("")
	if !reflect.DeepEqual(got, []string{"README.md", "src/"}) {
		t.Errorf("listed %q", got)
	}
	if got := mentionLister(root)("nope/"); got != nil {
		t.Errorf("a missing directory listed %q", got)
	}
}

// TestMentionTab: Tab after a typed @ completes a path of the workspace in
// the input box, and the focus stays there.
func TestMentionTab(t *testing.T) {
	b, _, _, root := attached(t, 160, 40, &providertest.Scripted{})
	if err := os.WriteFile(filepath.Join(root, "README.md"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b.typeText("explain @READ")
	b.waitInput("explain @READ")
	b.key(tcell.KeyTab, 0, tcell.ModNone)
	b.waitInput("explain @README.md ")
	if f := b.focus(); f != paneInput {
		t.Fatalf("Tab moved the focus to pane %d", f)
	}
}
