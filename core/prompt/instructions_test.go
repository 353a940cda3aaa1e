package prompt

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// write writes content to root/rel, creating directories, and returns the path.
func write(t *testing.T, root, rel, content string) string {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// layout is a test tree: a home, a pincer home and a repository.
type layout struct{ home, pincer, repo string }

func newLayout(t *testing.T) layout {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	l := layout{home: filepath.Join(base, "home"), pincer: filepath.Join(base, "pincer"), repo: filepath.Join(base, "repo")}
	for _, d := range []string{l.home, l.pincer, filepath.Join(l.repo, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

// load runs LoadInstructions and returns it with its files' paths.
func (l layout) load(t *testing.T, cwd string) (Instructions, []string) {
	t.Helper()
	ins, err := LoadInstructions(cwd, l.pincer, l.home)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range ins.Files {
		paths = append(paths, f.Path)
	}
	return ins, paths
}

func TestDiscoveryOrder(t *testing.T) {
	l := newLayout(t)
	user := write(t, l.pincer, "AGENTS.md", "user pincer")
	claudeUser := write(t, l.home, ".claude/CLAUDE.md", "user claude")
	write(t, filepath.Dir(l.repo), "AGENTS.md", "above the root: never read")
	rootAgents := write(t, l.repo, "AGENTS.md", "root agents")
	rootClaude := write(t, l.repo, "CLAUDE.md", "root claude")
	rootLocal := write(t, l.repo, "CLAUDE.local.md", "root local")
	subClaude := write(t, l.repo, "sub/CLAUDE.md", "sub claude")
	write(t, l.repo, "sub/deep/AGENTS.md", "deeper than cwd: never read")
	write(t, l.repo, "other/AGENTS.md", "sibling: never read")

	ins, paths := l.load(t, filepath.Join(l.repo, "sub"))
	want := []string{user, claudeUser, rootAgents, rootClaude, rootLocal, subClaude}
	if !slices.Equal(paths, want) {
		t.Fatalf("files = %q\nwant %q", paths, want)
	}
	scopes := []Scope{ScopeUser, ScopeUser, ScopeProject, ScopeProject, ScopeLocal, ScopeProject}
	for i, f := range ins.Files {
		if f.Scope != scopes[i] || f.Imported {
			t.Errorf("%s: scope %s imported %v", f.Path, f.Scope, f.Imported)
		}
	}
	// Text follows the same order, each file under a line naming it.
	last := -1
	for _, p := range want {
		i := strings.Index(ins.Text, "Contents of "+p+" (")
		if i <= last {
			t.Errorf("%s out of order in Text", p)
		}
		last = i
	}
	if strings.Contains(ins.Text, "never read") {
		t.Errorf("read a file outside root..cwd:\n%s", ins.Text)
	}
	if !strings.Contains(ins.Text, "Contents of "+rootLocal+" (the user's private instructions for this project):\n\nroot local") {
		t.Errorf("local file rendered wrongly:\n%s", ins.Text)
	}
	if len(ins.Notes) != 0 {
		t.Errorf("notes: %q", ins.Notes)
	}
}

func TestDiscoveryEdgeCases(t *testing.T) {
	t.Run("override replaces AGENTS.md in its directory", func(t *testing.T) {
		l := newLayout(t)
		write(t, l.pincer, "AGENTS.md", "user base")
		uo := write(t, l.pincer, "AGENTS.override.md", "user override")
		write(t, l.repo, "AGENTS.md", "base")
		o := write(t, l.repo, "AGENTS.override.md", "override")
		_, paths := l.load(t, l.repo)
		if !slices.Equal(paths, []string{uo, o}) {
			t.Errorf("files = %q", paths)
		}
	})
	t.Run("empty override falls back", func(t *testing.T) {
		l := newLayout(t)
		a := write(t, l.repo, "AGENTS.md", "base")
		write(t, l.repo, "AGENTS.override.md", " \n")
		_, paths := l.load(t, l.repo)
		if !slices.Equal(paths, []string{a}) {
			t.Errorf("files = %q", paths)
		}
	})
	t.Run("no repository: cwd only", func(t *testing.T) {
		base := t.TempDir()
		write(t, base, "AGENTS.md", "parent")
		c := write(t, base, "work/CLAUDE.md", "cwd")
		ins, err := LoadInstructions(filepath.Join(base, "work"), "", "")
		if err != nil {
			t.Fatal(err)
		}
		if len(ins.Files) != 1 || ins.Files[0].Path != c {
			t.Errorf("files = %+v", ins.Files)
		}
	})
	t.Run("symlinked CLAUDE.md is read once", func(t *testing.T) {
		l := newLayout(t)
		a := write(t, l.repo, "AGENTS.md", "shared")
		if err := os.Symlink("AGENTS.md", filepath.Join(l.repo, "CLAUDE.md")); err != nil {
			t.Fatal(err)
		}
		_, paths := l.load(t, l.repo)
		if !slices.Equal(paths, []string{a}) {
			t.Errorf("files = %q", paths)
		}
	})
	t.Run("nothing to load", func(t *testing.T) {
		l := newLayout(t)
		ins, _ := l.load(t, l.repo)
		if len(ins.Files) != 0 || ins.Text != "" || len(ins.Notes) != 0 {
			t.Errorf("got %+v", ins)
		}
	})
	t.Run("empty cwd", func(t *testing.T) {
		if _, err := LoadInstructions("", "", ""); err == nil {
			t.Error("no error for an empty cwd")
		}
	})
}

func TestImports(t *testing.T) {
	l := newLayout(t)
	outside := write(t, t.TempDir(), "outside.md", "OUTSIDE")
	root := write(t, l.repo, "AGENTS.md", strings.Join([]string{
		"Project rules. See @docs/style.md and @~/.claude/mine.md.",
		"Not an import: `@docs/inline.md`",
		"```",
		"@docs/fenced.md",
		"```",
		"Missing: @docs/nope.md",
		"Outside: @" + outside + " and @" + filepath.Join(l.home, "secret.md"),
		"Pincer's home: @" + filepath.Join(l.pincer, "secret.txt"),
	}, "\n"))
	style := write(t, l.repo, "docs/style.md", "style; more in @../rules/naming.md")
	naming := write(t, l.repo, "rules/naming.md", "naming; back to @../AGENTS.md and on to @../docs/style.md")
	write(t, l.home, ".claude/mine.md", "MINE")
	write(t, l.pincer, "secret.txt", "PINCERSECRET")
	write(t, l.repo, "docs/inline.md", "INLINE")
	write(t, l.repo, "docs/fenced.md", "FENCED")
	write(t, l.home, "secret.md", "SECRET")

	ins, paths := l.load(t, l.repo)
	want := []string{root, style, naming}
	if !slices.Equal(paths, want) {
		t.Fatalf("files = %q\nwant %q", paths, want)
	}
	for i, f := range ins.Files {
		if f.Imported != (i > 0) || f.Scope != ScopeProject {
			t.Errorf("%s: imported %v scope %s", f.Path, f.Imported, f.Scope)
		}
	}
	for _, s := range []string{"INLINE", "FENCED", "SECRET", "OUTSIDE", "MINE", "PINCERSECRET"} {
		if strings.Contains(ins.Text, s) {
			t.Errorf("Text includes %s", s)
		}
	}
	if !strings.Contains(ins.Text, "imported by "+style) {
		t.Errorf("naming.md not introduced as imported by style.md:\n%s", ins.Text)
	}
	notes := strings.Join(ins.Notes, "\n")
	for _, s := range []string{
		filepath.Join(l.repo, "docs/nope.md") + ": not found (imported by " + root + ")",
		outside + ": refused",
		filepath.Join(l.home, "secret.md") + ": refused",
		// a repository file imports only from inside the project: not from
		// ~/.claude or $PINCER_HOME either
		filepath.Join(l.home, ".claude/mine.md") + ": refused: a project file may import only from inside the project",
		filepath.Join(l.pincer, "secret.txt") + ": refused: a project file may import only from inside the project",
	} {
		if !strings.Contains(notes, s) {
			t.Errorf("notes lack %q:\n%s", s, notes)
		}
	}
	if len(ins.Notes) != 5 {
		t.Errorf("want 5 notes (a cycle is cut silently), got %q", ins.Notes)
	}
}

// TestProjectImportsNotFromUserDirs: $PINCER_HOME and ~/.claude stay closed to
// a repository's files even when the project root holds them (a dotfiles
// repository in the home directory), and the user's own files still import
// from them.
func TestProjectImportsNotFromUserDirs(t *testing.T) {
	l := newLayout(t)
	l.repo = l.home
	if err := os.MkdirAll(filepath.Join(l.home, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	pincer := filepath.Join(l.home, ".pincer")
	secret := write(t, pincer, "secret.txt", "PINCERSECRET")
	claudeNote := write(t, l.home, ".claude/notes.md", "CLAUDENOTE")
	mine := write(t, l.home, ".claude/mine.md", "MINE")
	userFile := write(t, l.home, ".claude/CLAUDE.md", "mine: @mine.md")
	repoFile := write(t, l.home, "AGENTS.md", "@.pincer/secret.txt @.claude/notes.md @docs/ok.md")
	ok := write(t, l.home, "docs/ok.md", "OK")
	ins, err := LoadInstructions(l.home, pincer, l.home)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range ins.Files {
		paths = append(paths, f.Path)
	}
	if want := []string{userFile, mine, repoFile, ok}; !slices.Equal(paths, want) {
		t.Fatalf("files = %q\nwant %q", paths, want)
	}
	for _, s := range []string{"PINCERSECRET", "CLAUDENOTE"} {
		if strings.Contains(ins.Text, s) {
			t.Errorf("a repository file imported %s:\n%s", s, ins.Text)
		}
	}
	notes := strings.Join(ins.Notes, "\n")
	for _, p := range []string{secret, claudeNote} {
		if !strings.Contains(notes, p+": refused: a project file may import only from inside the project") {
			t.Errorf("notes lack the refusal of %s:\n%s", p, notes)
		}
	}
}

func TestUserImportsUnrestricted(t *testing.T) {
	l := newLayout(t)
	elsewhere := write(t, t.TempDir(), "team.md", "team rules")
	user := write(t, l.pincer, "AGENTS.md", "@"+elsewhere)
	_, paths := l.load(t, l.repo)
	if !slices.Equal(paths, []string{user, elsewhere}) {
		t.Errorf("files = %q", paths)
	}
}

func TestImportDepthLimit(t *testing.T) {
	l := newLayout(t)
	// AGENTS.md -> f1 -> f2 -> f3 -> f4 -> f5: four hops are followed, not five.
	write(t, l.repo, "AGENTS.md", "level 0 @f1.md")
	for i := 1; i <= 5; i++ {
		write(t, l.repo, "f"+string(rune('0'+i))+".md", "level "+string(rune('0'+i))+" @f"+string(rune('1'+i))+".md")
	}
	ins, paths := l.load(t, l.repo)
	if len(paths) != 1+MaxImportDepth {
		t.Fatalf("files = %q", paths)
	}
	if !strings.Contains(ins.Text, "level 4") || strings.Contains(ins.Text, "level 5") {
		t.Errorf("depth limit wrong:\n%s", ins.Text)
	}
	if len(ins.Notes) != 1 || !strings.Contains(ins.Notes[0], "f4.md: its imports were not followed") {
		t.Errorf("notes = %q", ins.Notes)
	}
}

func TestCycle(t *testing.T) {
	l := newLayout(t)
	a := write(t, l.repo, "AGENTS.md", "A imports @b.md")
	b := write(t, l.repo, "b.md", "B imports @AGENTS.md")
	ins, paths := l.load(t, l.repo)
	if !slices.Equal(paths, []string{a, b}) || len(ins.Notes) != 0 {
		t.Errorf("files = %q notes = %q", paths, ins.Notes)
	}
	if strings.Count(ins.Text, "A imports") != 1 {
		t.Errorf("A included twice:\n%s", ins.Text)
	}
}

func TestSizeAccounting(t *testing.T) {
	l := newLayout(t)
	write(t, l.repo, "AGENTS.md", "12345\n@big.md\n")
	big := strings.Repeat("0123456789abcde\n", MaxInstructionFileBytes/16+10)
	write(t, l.repo, "big.md", big)
	ins, _ := l.load(t, l.repo)
	if len(ins.Files) != 2 {
		t.Fatalf("files = %+v", ins.Files)
	}
	if ins.Files[0].Bytes != len("12345\n@big.md\n") {
		t.Errorf("AGENTS.md Bytes = %d", ins.Files[0].Bytes)
	}
	if b := ins.Files[1].Bytes; b > MaxInstructionFileBytes || b < MaxInstructionFileBytes-16 || b%16 != 0 {
		t.Errorf("big.md Bytes = %d: want cut at a line end near %d", b, MaxInstructionFileBytes)
	}
	if ins.TotalBytes() != ins.Files[0].Bytes+ins.Files[1].Bytes {
		t.Errorf("TotalBytes = %d", ins.TotalBytes())
	}
	if len(ins.Notes) != 1 || !strings.Contains(ins.Notes[0], "cut to its first") {
		t.Errorf("notes = %q", ins.Notes)
	}

	// Past MaxInstructionBytes in all, further files are skipped.
	l = newLayout(t)
	var refs []string
	for i := range 5 {
		name := "part" + string(rune('a'+i)) + ".md"
		write(t, l.repo, name, big)
		refs = append(refs, "@"+name)
	}
	write(t, l.repo, "AGENTS.md", strings.Join(refs, "\n"))
	ins, _ = l.load(t, l.repo)
	if ins.TotalBytes() > MaxInstructionBytes {
		t.Errorf("TotalBytes %d over the limit", ins.TotalBytes())
	}
	if len(ins.Files) != 4 || !strings.Contains(strings.Join(ins.Notes, "\n"), "parte.md: skipped") {
		t.Errorf("files %d, notes %q", len(ins.Files), ins.Notes)
	}
}

func TestBinaryAndDirectoryImports(t *testing.T) {
	l := newLayout(t)
	write(t, l.repo, "AGENTS.md", "@bin.md @docs")
	write(t, l.repo, "bin.md", "a\x00b")
	if err := os.MkdirAll(filepath.Join(l.repo, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	ins, _ := l.load(t, l.repo)
	notes := strings.Join(ins.Notes, "\n")
	if len(ins.Files) != 1 || !strings.Contains(notes, "bin.md: binary file") || !strings.Contains(notes, "docs: not a regular file") {
		t.Errorf("files %d, notes %q", len(ins.Files), ins.Notes)
	}
}
