package checkpoint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"pincer/persist/memory"
)

// benchTree is a workspace of 50,000 small files (500 directories of 100),
// made once per test binary.
var benchTree = struct {
	once sync.Once
	dir  string
}{}

func tree50k(b *testing.B) string {
	benchTree.once.Do(func() {
		dir, err := os.MkdirTemp("", "pincer-ckpt-bench-")
		if err != nil {
			b.Fatal(err)
		}
		for d := 0; d < 500; d++ {
			sub := filepath.Join(dir, fmt.Sprintf("pkg%03d", d))
			if err := os.MkdirAll(sub, 0o755); err != nil {
				b.Fatal(err)
			}
			for f := 0; f < 100; f++ {
				body := fmt.Sprintf("package pkg%03d\n\n// file %d\nfunc F%d() int { return %d }\n", d, f, f, d*f)
				if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%03d.go", f)), []byte(body), 0o644); err != nil {
					b.Fatal(err)
				}
			}
		}
		benchTree.dir = dir
		time.Sleep(racyWindow) // files written just now are racy: re-read at every scan until older
	})
	return benchTree.dir
}

func storedBytes(b *testing.B, s *memory.Store) int64 {
	blobs, err := s.ListBlobs(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	var n int64
	for _, v := range blobs {
		n += v
	}
	return n
}

// BenchmarkFirstScan: the first scan of a process on a 50k-file tree, which
// reads and stores every file (the baseline).
func BenchmarkFirstScan(b *testing.B) {
	root := tree50k(b)
	ctx := context.Background()
	for b.Loop() {
		s := memory.New()
		r, _ := New(s, root, Options{})
		r.Before(ctx, nil, true)
		r.Close()
		b.ReportMetric(float64(storedBytes(b, s)), "stored-B")
	}
}

// BenchmarkCheckpointEdit: one Edit's checkpoint (its file read before and
// after, one changed blob stored) in the 50k-file tree.
func BenchmarkCheckpointEdit(b *testing.B) {
	root := tree50k(b)
	ctx := context.Background()
	s := memory.New()
	r, _ := New(s, root, Options{})
	defer r.Close()
	path := filepath.Join(root, "pkg007", "f007.go")
	orig, _ := os.ReadFile(path)
	defer os.WriteFile(path, orig, 0o644)
	i := 0
	start := storedBytes(b, s)
	for b.Loop() {
		p := r.Before(ctx, []string{path}, false)
		i++
		_ = os.WriteFile(path, fmt.Appendf(nil, "%s// edit %d\n", orig, i), 0o644)
		if _, ok, err := p.After(ctx, "s", "t", "c", "Edit"); !ok || err != nil {
			b.Fatal(ok, err)
		}
	}
	b.ReportMetric(float64(storedBytes(b, s)-start)/float64(i), "stored-B/call")
}

// BenchmarkCheckpointBash: one Bash call's checkpoint in the 50k-file tree
// once the baseline exists: a scan before and after, one file changed.
func BenchmarkCheckpointBash(b *testing.B) {
	root := tree50k(b)
	ctx := context.Background()
	s := memory.New()
	r, _ := New(s, root, Options{})
	defer r.Close()
	r.mu.Lock()
	if _, err := r.syncBase(ctx); err != nil {
		b.Fatal(err)
	}
	r.mu.Unlock()
	path := filepath.Join(root, "pkg011", "f011.go")
	orig, _ := os.ReadFile(path)
	defer os.WriteFile(path, orig, 0o644)
	i := 0
	start := storedBytes(b, s)
	for b.Loop() {
		p := r.Before(ctx, nil, true)
		i++
		_ = os.WriteFile(path, fmt.Appendf(nil, "%s// bash %d\n", orig, i), 0o644)
		if _, ok, err := p.After(ctx, "s", "t", "c", "Bash"); !ok || err != nil {
			b.Fatal(ok, err)
		}
	}
	b.ReportMetric(float64(storedBytes(b, s)-start)/float64(i), "stored-B/call")
}

// BenchmarkLstatTree: the floor of a scan, one walk of the 50k-file tree
// lstat'ing every file and nothing else (a Bash checkpoint is two scans: its
// ratio to twice this is the overhead of the checkpoint's bookkeeping).
func BenchmarkLstatTree(b *testing.B) {
	root := tree50k(b)
	for b.Loop() {
		n := 0
		_ = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if _, err := d.Info(); err == nil {
					n++
				}
			}
			return nil
		})
		if n != 50000 {
			b.Fatal(n)
		}
	}
}
