package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"
)

// swapper swaps root/d between a real directory and a symlink to outside in a
// loop, as a hostile background process would, until stop is closed. The swap
// is atomic (renameat2 RENAME_EXCHANGE), so d always exists: half the time it
// is the directory, half the time the link.
func swapper(t *testing.T, root, outside string, stop <-chan struct{}) *sync.WaitGroup {
	t.Helper()
	d, link := filepath.Join(root, "d"), filepath.Join(root, "d.link")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		swapped := false
		for {
			select {
			case <-stop:
				if swapped { // leave the real directory at d
					unix.Renameat2(unix.AT_FDCWD, d, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE)
				}
				return
			default:
			}
			if err := unix.Renameat2(unix.AT_FDCWD, d, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE); err == nil {
				swapped = !swapped
			} else {
				t.Errorf("renameat2: %v", err)
				return
			}
			runtime.Gosched()
		}
	})
	return &wg
}

// countOutside counts the entries of dir whose name starts with prefix.
func countOutside(t *testing.T, dir, prefix string) int {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			n++
		}
	}
	return n
}

// TestRaceSwapDirForSymlink is issue 10's class 7: while a background goroutine
// swaps a workspace directory for a symlink to an outside directory, 300 Writes,
// 300 Reads and 300 Edits under that directory never reach outside: no file is
// created there, no outside content is read, the outside file is not changed.
func TestRaceSwapDirForSymlink(t *testing.T) {
	const n = 300
	env, root := newTestEnv(t)
	outside, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, root, "d/r.txt", "INSIDE\n")
	writeTestFile(t, root, "d/e.txt", "line\n")
	writeTestFile(t, outside, "r.txt", "OUTSIDE-SECRET\n")
	writeTestFile(t, outside, "e.txt", "line\n")

	stop := make(chan struct{})
	wg := swapper(t, root, outside, stop)
	var leakedReads, okWrites, okReads, okEdits atomic.Int64
	for i := range n {
		if _, err := runTool(t, Write{}, env, WriteInput{FilePath: fmt.Sprintf("d/PROOF-%03d.txt", i), Content: "pwned\n"}); err == nil {
			okWrites.Add(1)
		}
		res, err := runTool(t, Read{}, env, ReadInput{FilePath: "d/r.txt"})
		if err == nil {
			okReads.Add(1)
		}
		if strings.Contains(res.Output, "OUTSIDE-SECRET") {
			leakedReads.Add(1)
		}
		if _, err := runTool(t, Read{}, env, ReadInput{FilePath: "d/e.txt"}); err == nil {
			if _, err := runTool(t, Edit{}, env, EditInput{FilePath: "d/e.txt", OldString: "line", NewString: "line+"}); err == nil {
				okEdits.Add(1)
			}
		}
	}
	close(stop)
	wg.Wait()

	outWrites := countOutside(t, outside, "PROOF-")
	t.Logf("of %d each: writes outside %d, reads of the outside file %d; succeeded inside: %d writes, %d reads, %d edits",
		n, outWrites, leakedReads.Load(), okWrites.Load(), okReads.Load(), okEdits.Load())
	if outWrites != 0 {
		t.Errorf("%d of %d Writes landed outside the workspace", outWrites, n)
	}
	if leakedReads.Load() != 0 {
		t.Errorf("%d of %d Reads returned the outside file", leakedReads.Load(), n)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "e.txt")); string(b) != "line\n" {
		t.Errorf("an Edit changed the outside file: %q", b)
	}
}

// TestHardlinkToOutside: a hard link inside the workspace to a file outside it
// can be read (reading is reading: a hard link is the file), but Write and Edit
// replace the workspace's directory entry (temp file + rename) and never write
// through the link: the outside file keeps its content.
func TestHardlinkToOutside(t *testing.T) {
	for _, tool := range []string{"Write", "Edit"} {
		t.Run(tool, func(t *testing.T) {
			env, root := newTestEnv(t)
			outside, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			secret := writeTestFile(t, outside, "secret.txt", "original\n")
			if err := os.Link(secret, filepath.Join(root, "hl.txt")); err != nil {
				t.Skipf("hard link: %v", err)
			}
			res, err := runTool(t, Read{}, env, ReadInput{FilePath: "hl.txt"})
			if err != nil || !strings.Contains(res.Output, "original") {
				t.Fatalf("Read of the hard link = %q, %v", res.Output, err)
			}
			if tool == "Write" {
				_, err = runTool(t, Write{}, env, WriteInput{FilePath: "hl.txt", Content: "PROOF\n"})
			} else {
				_, err = runTool(t, Edit{}, env, EditInput{FilePath: "hl.txt", OldString: "original", NewString: "PROOF"})
			}
			if err != nil {
				t.Fatalf("%s: %v", tool, err)
			}
			if got := readTestFile(t, root, "hl.txt"); got != "PROOF\n" {
				t.Errorf("hl.txt = %q", got)
			}
			if b, _ := os.ReadFile(secret); string(b) != "original\n" {
				t.Errorf("%s wrote through the hard link: the outside file is %q", tool, b)
			}
		})
	}
}

// TestRaceSearchSwap: while a directory is swapped for a symlink to the
// outside, 100 Grep calls per backend (the Go walk, and ripgrep when
// installed) and 100 Glob calls never show the outside marker.
func TestRaceSearchSwap(t *testing.T) {
	env, root := newTestEnv(t)
	outside, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, root, "d/in.txt", "MARKER inside\n")
	writeTestFile(t, outside, "SECRET-NAME.txt", "MARKER OUTSIDE-SECRET\n")
	stop := make(chan struct{})
	wg := swapper(t, root, outside, stop)
	leaks := 0
	backends := searchBackends(t)
	for range 100 {
		for _, path := range []string{"", "d"} {
			for name, g := range backends {
				res, _ := runTool(t, g, env, GrepInput{Pattern: "MARKER", Path: path, OutputMode: GrepContent})
				if strings.Contains(res.Output, "OUTSIDE-SECRET") {
					t.Logf("%s in %q: %s", name, path, res.Output)
					leaks++
				}
			}
			res, _ := runTool(t, Glob{}, env, GlobInput{Pattern: "**/*.txt", Path: path})
			if strings.Contains(res.Output, "SECRET-NAME") {
				leaks++
			}
		}
	}
	close(stop)
	wg.Wait()
	if leaks != 0 {
		t.Fatalf("%d searches showed the outside directory", leaks)
	}
}

// TestFIFONeverBlocks: a FIFO in the workspace (which a background process
// could swap in for a file) is refused at once by Read, Write, Edit and Grep,
// never opened in a way that waits for a writer (a hang here ends in go
// test's timeout).
func TestFIFONeverBlocks(t *testing.T) {
	env, root := newTestEnv(t)
	if err := unix.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if _, err := runTool(t, Read{}, env, ReadInput{FilePath: "pipe"}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Read of a FIFO: %v", err)
	}
	if _, err := runTool(t, Write{}, env, WriteInput{FilePath: "pipe", Content: "x"}); err == nil {
		t.Error("Write of a FIFO succeeded")
	}
	if _, err := runTool(t, Edit{}, env, EditInput{FilePath: "pipe", OldString: "a", NewString: "b"}); err == nil {
		t.Error("Edit of a FIFO succeeded")
	}
	if _, err := runTool(t, Grep{Backend: GrepFallback}, env, GrepInput{Pattern: "x", Path: "pipe"}); err != nil {
		t.Errorf("Grep of a FIFO: %v", err)
	}
}

// TestSpillNeverFollowsLinksOut: the spill directory of a session lies in an
// added directory that sandboxed commands may write in. A session directory
// replaced by a symlink to the outside is refused (the output is cut, not
// saved there), and a symlink planted at the spill file's name is replaced,
// not written through.
func TestSpillNeverFollowsLinksOut(t *testing.T) {
	spillRoot := t.TempDir()
	outside := t.TempDir()
	target := writeTestFile(t, outside, "victim.txt", "original\n")
	long := strings.Repeat("PROOF line\n", 2000)

	// A session directory that is a link out.
	if err := os.Symlink(outside, filepath.Join(spillRoot, "s1")); err != nil {
		t.Fatal(err)
	}
	if _, path, err := Spill(filepath.Join(spillRoot, "s1"), "c1", long, 500); err == nil || path != "" {
		t.Errorf("Spill into a linked-out session dir: path %q, err %v", path, err)
	}
	// A planted link at the final name.
	if err := os.MkdirAll(filepath.Join(spillRoot, "s2"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(spillRoot, "s2", "c2.txt")); err != nil {
		t.Fatal(err)
	}
	_, path, err := Spill(filepath.Join(spillRoot, "s2"), "c2", long, 500)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("spill file %s: %v, %v", path, fi, err)
	}
	if b, _ := os.ReadFile(target); string(b) != "original\n" {
		t.Errorf("the outside file changed: %q", b[:min(len(b), 40)])
	}
	if n := countOutside(t, outside, ""); n != 1 {
		t.Errorf("outside holds %d entries, want 1", n)
	}
}
