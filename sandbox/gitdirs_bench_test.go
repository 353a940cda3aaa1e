package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkGitDirsIn measures the discovery walk at sandbox set-up on a tree
// of 50,000 files in 2,500 directories (4 levels), with one bare repository
// deep in it: what a Bash command pays twice (set-up and the quarantine
// snapshot) before it runs.
func BenchmarkGitDirsIn(b *testing.B) {
	root := b.TempDir()
	for i := 0; i < 2500; i++ {
		d := filepath.Join(root, fmt.Sprintf("a%d", i%10), fmt.Sprintf("b%d", i%50), fmt.Sprintf("c%d", i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
		for j := 0; j < 20; j++ {
			if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("f%d.go", j)), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	g := filepath.Join(root, "a1", "b1", "r.git")
	for _, d := range []string{"objects", "refs"} {
		_ = os.MkdirAll(filepath.Join(g, d), 0o755)
	}
	_ = os.WriteFile(filepath.Join(g, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if got := GitDirsIn(root); len(got) != 1 {
			b.Fatalf("found %v", got)
		}
	}
}
