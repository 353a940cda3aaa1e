package sandbox

import (
	"fmt"
	"os"
	"os/exec"
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

// BenchmarkGuardGitRepo measures the protected-path guard of one Bash call
// (snapshotProtected before, quarantine after: the discovery walk twice, the
// git dirs' state scan twice) on a real repository of 20,000 committed
// files in 1,000 directories with 200 branches and tags, nothing to move.
func BenchmarkGuardGitRepo(b *testing.B) {
	root := b.TempDir()
	for i := 0; i < 1000; i++ {
		d := filepath.Join(root, fmt.Sprintf("a%d", i%10), fmt.Sprintf("c%d", i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
		for j := 0; j < 20; j++ {
			if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("f%d.go", j)), []byte(fmt.Sprint(i, j)), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	script := `git init -q . && git config gc.auto 0 && git add -A && git commit -qm x && for i in $(seq 100); do git branch b$i; git tag t$i; done`
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), gitEnv...)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%v %s", err, out)
	}
	rel := DefaultPolicy().readOnly()
	qdir := b.TempDir()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st := snapshotProtected([]string{root}, rel)
		if n := quarantine(st, qdir); n != "" {
			b.Fatal(n)
		}
	}
}
