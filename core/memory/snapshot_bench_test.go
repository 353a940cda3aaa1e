package memory

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkTakeSnapshot is the cost a new session's first turn pays for
// its memory: USER.md and MEMORY.md at the line cap (200 lines each), every
// line linking a 4 KB file (the snapshot reads until its 25 KB are spent).
func BenchmarkTakeSnapshot(b *testing.B) {
	base := b.TempDir()
	p := PathsFor(filepath.Join(base, "config"), filepath.Join(base, "data"), filepath.Join(base, "work"))
	var user, project strings.Builder
	for i := range MaxIndexLines {
		fmt.Fprintf(&user, "- [u%d](memory/u%d.md) — about the user %d\n", i, i, i)
		fmt.Fprintf(&project, "- [p%d](p%d.md) — a project fact %d\n", i, i, i)
		for _, f := range []string{filepath.Join(p.UserDir, fmt.Sprintf("u%d.md", i)), filepath.Join(p.ProjectDir, fmt.Sprintf("p%d.md", i))} {
			if err := os.MkdirAll(filepath.Dir(f), 0o700); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(f, []byte(strings.Repeat("x", MaxSnapshotFileBytes)), 0o600); err != nil {
				b.Fatal(err)
			}
		}
	}
	for path, text := range map[string]string{p.UserIndex: user.String(), p.ProjectIndex(): project.String()} {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	var n int
	for b.Loop() {
		n = len(TakeSnapshot(p).Text)
	}
	b.ReportMetric(float64(n), "prompt-bytes")
}
