package checkpoint

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The racily-clean rule, as git's: a stat proves a file unchanged only when
// its mtime is older than the read, less the timestamp granularity.
func TestRacy(t *testing.T) {
	read := time.Date(2026, 12, 2, 5, 0, 0, 500_000_000, time.UTC).UnixNano()
	cases := []struct {
		name  string
		mtime int64
		racy  bool
	}{
		{"written after the read", read + 1, true},
		{"written at the read", read, true},
		{"within the coarse clock's lag", read - int64(50*time.Millisecond), true},
		{"older than the fine slack", read - int64(racyFine) - 1, false},
		{"whole seconds (coarse fs) within 2 s", read - int64(500*time.Millisecond), true},
		{"whole seconds, 1.5 s before", read - int64(1500*time.Millisecond), true},
		{"whole seconds, older than 2 s", read - int64(2500*time.Millisecond), false},
		{"long ago", read - int64(time.Hour) + 7, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := (tracked{st: stat{MtimeNs: c.mtime}, at: read}).racy(); got != c.racy {
				t.Fatalf("racy(mtime %d, read %d) = %v, want %v", c.mtime, read, got, c.racy)
			}
		})
	}
}

// A command that rewrites a file with the same size and puts its mtime back
// (within the racy window of the scan before) is still seen; a second change
// the same way after a later scan re-read it is seen too.
func TestScanSeesSameSizeSameMtime(t *testing.T) {
	ctx := context.Background()
	r, _, root := newRecorder(t)
	write(t, root, "a.txt", "aaaa", 0o644)
	path := filepath.Join(root, "a.txt")
	fi, _ := os.Stat(path)
	mtime := fi.ModTime()
	for i, content := range []string{"bbbb", "cccc"} {
		p := r.Before(ctx, nil, true)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		cp, ok, err := p.After(ctx, "s", "t", "c", "Bash")
		if err != nil || !ok || len(cp.Files) != 1 || cp.Files[0].Path != "a.txt" {
			t.Fatalf("change %d (%q, same size and mtime) not seen: %v %v %+v", i, content, ok, err, cp.Files)
		}
	}
}

// Two commands' scans overlapping (Before A, Before B, a change, After A,
// After B) both see the change and a deletion: the baseline a Pending holds
// is not changed under it (copy on write).
func TestOverlappingScans(t *testing.T) {
	ctx := context.Background()
	r, _, root := newRecorder(t)
	write(t, root, "a.txt", "a", 0o644)
	write(t, root, "b.txt", "b", 0o644)
	pa := r.Before(ctx, nil, true)
	pb := r.Before(ctx, nil, true)
	write(t, root, "a.txt", "a2", 0o644)
	if err := os.Remove(filepath.Join(root, "b.txt")); err != nil {
		t.Fatal(err)
	}
	for name, p := range map[string]*Pending{"A": pa, "B": pb} {
		cp, ok, err := p.After(ctx, "s", "t", "c"+name, "Bash")
		if err != nil || !ok || len(cp.Files) != 2 {
			t.Fatalf("%s: %v %v %+v", name, ok, err, cp.Files)
		}
		if cp.Files[0].Path != "a.txt" || cp.Files[1].Path != "b.txt" || !cp.Files[1].After.Absent || cp.Files[1].Before.Absent {
			t.Fatalf("%s: %+v", name, cp.Files)
		}
	}
	p := r.Before(ctx, nil, true)
	if _, ok, err := p.After(ctx, "s", "t", "c3", "Bash"); ok || err != nil {
		t.Fatalf("nothing changed since, recorded %v %v", ok, err)
	}
}
