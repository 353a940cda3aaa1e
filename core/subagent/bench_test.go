package subagent

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkDiscover is the catalog Prepare builds once per session: the
// built-ins, 20 project definitions and 10 user ones (each a frontmatter
// of five keys and a 2 KB prompt), 5 of the user's shadowed by the project.
// BenchmarkListing is the Agent tool's listing of that catalog.
func BenchmarkDiscover(b *testing.B) {
	base := b.TempDir()
	root, home := filepath.Join(base, "repo"), filepath.Join(base, "home")
	body := ""
	for range 40 {
		body += "Work carefully through the task, reporting paths and lines as you go. "
	}
	write := func(dir string, i int) {
		_ = os.MkdirAll(dir, 0o755)
		src := fmt.Sprintf("---\nname: agent-%d\ndescription: Agent number %d for a benchmark\ntools: Read, Grep, Glob\nmodel: inherit\nmaxTurns: 9\n---\n%s\n", i, i, body)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("agent-%d.md", i)), []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 20 {
		write(filepath.Join(root, ".claude", "agents"), i)
	}
	for i := 15; i < 25; i++ {
		write(filepath.Join(home, ".claude", "agents"), i)
	}
	d := DirsFor(root, home, "")
	var c *Catalog
	b.Run("discover", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c = Discover(d)
		}
	})
	if n := len(c.Definitions()); n != 28 {
		b.Fatalf("%d definitions, want 28", n)
	}
	b.Run("listing", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = c.Listing()
		}
	})
}
