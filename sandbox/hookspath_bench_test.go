package sandbox

import (
	"context"
	"os/exec"
	"testing"
)

// BenchmarkGitHooksOf is the start-up cost of reading where the person's git
// takes its hooks from (two git processes), in a fresh repository.
func BenchmarkGitHooksOf(b *testing.B) {
	root := b.TempDir()
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		b.Fatalf("git init: %v %s", err, out)
	}
	for b.Loop() {
		if _, err := GitHooksOf(context.Background(), root); err != nil {
			b.Fatal(err)
		}
	}
}
