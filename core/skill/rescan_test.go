package skill

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestRescanSeesNewFiles: a command and a skill added after Discover, and a
// command removed, show after Rescan (the next session's catalog), the Sources
// stay, and readers running meanwhile see one catalog or the other (go test
// -race).
func TestRescanSeesNewFiles(t *testing.T) {
	root, home, cfg := t.TempDir(), t.TempDir(), t.TempDir()
	write(t, filepath.Join(root, ".claude/commands/old.md"), "old command\n")
	c := Discover(DirsFor(root, home, cfg))
	c.AddSource(fakeSource{"mcp__s__p"})
	if _, ok := c.Lookup("old"); !ok {
		t.Fatal("old command not found")
	}
	write(t, filepath.Join(root, ".claude/commands/ship/release.md"), "---\ndescription: release it\n---\nRelease $ARGUMENTS\n")
	write(t, filepath.Join(root, ".claude/skills/fresh/SKILL.md"), "---\ndescription: a fresh skill\n---\nbody\n")
	_ = os.Remove(filepath.Join(root, ".claude/commands/old.md"))
	if _, ok := c.Lookup("release"); ok {
		t.Fatal("a file added after Discover is in the catalog before Rescan")
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
				_, _ = c.Entries(), c.Index()
				_, _ = c.Lookup("release")
			}
		}
	}()
	if problems := c.Rescan(); len(problems) != 0 {
		t.Errorf("problems: %v", problems)
	}
	close(stop)
	wg.Wait()
	for _, name := range []string{"release", "ship:release", "fresh"} {
		if _, ok := c.Lookup(name); !ok {
			t.Errorf("%s not found after Rescan", name)
		}
	}
	if _, ok := c.Lookup("old"); ok {
		t.Error("a removed command is still there after Rescan")
	}
	if _, ok := c.Source("mcp__s__p"); !ok {
		t.Error("Rescan dropped the Sources")
	}
	if c.Index() != "- fresh: a fresh skill\n" {
		t.Errorf("index after Rescan: %q", c.Index())
	}
	if NewCatalog().Rescan() != nil {
		t.Error("a NewCatalog catalog rescanned")
	}
}

// fakeSource offers one entry (an MCP prompt's stand-in).
type fakeSource struct{ name string }

func (f fakeSource) Entries() []Entry { return []Entry{{Name: f.name}} }
func (f fakeSource) Expand(context.Context, string, string) (string, error) {
	return "", nil
}
