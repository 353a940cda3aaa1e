package tui

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLoadLayoutFiles: the kept layout is read only from a small regular
// file; a FIFO at its path (red team, round 2) is an error at once, not a
// workbench blocked before its first frame.
func TestLoadLayoutFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path string
		want       LayoutMode
		err        string
	}{
		{"no path", "", LayoutAuto, ""},
		{"missing", filepath.Join(dir, "none"), LayoutAuto, ""},
		{"kept", write("kept", "stacked\n"), LayoutStacked, ""},
		{"unknown name", write("bad", "sideways\n"), LayoutAuto, "sideways"},
		{"huge", write("huge", strings.Repeat("stacked ", 1000)), LayoutAuto, "larger than"},
		{"fifo", fifo, LayoutAuto, "not a regular file"},
		{"directory", dir, LayoutAuto, "not a regular file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			type result struct {
				m   LayoutMode
				err error
			}
			done := make(chan result, 1)
			go func() { m, err := loadLayout(tc.path); done <- result{m, err} }()
			var r result
			select {
			case r = <-done:
			case <-time.After(10 * time.Second): // a deadlock guard, not a timing assertion
				t.Fatalf("loadLayout(%s) blocked", tc.name)
			}
			if r.m != tc.want {
				t.Errorf("layout %q, want %q", r.m, tc.want)
			}
			if (tc.err == "") != (r.err == nil) || (r.err != nil && !strings.Contains(r.err.Error(), tc.err)) {
				t.Errorf("error %v, want one containing %q", r.err, tc.err)
			}
		})
	}
}
