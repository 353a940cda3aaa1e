package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// newTestWorkspace makes a workspace with this layout:
//
//	root/
//	  a.txt
//	  sub/b.txt
//	  in-link    -> sub            (a link that stays inside)
//	  out-link   -> outside        (a directory outside the root)
//	  file-out   -> outside/secret (a file outside the root)
//	  dangling   -> outside/new    (a link to a file that does not exist yet)
//	  loop       -> loop
//	outside/secret
func newTestWorkspace(t *testing.T) (*Workspace, string, string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "root")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(root, "sub"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string) {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "a.txt"))
	write(filepath.Join(root, "sub", "b.txt"))
	write(filepath.Join(outside, "secret"))
	links := map[string]string{
		"in-link":  "sub",
		"out-link": outside,
		"file-out": filepath.Join(outside, "secret"),
		"dangling": filepath.Join(outside, "new"),
		"loop":     "loop",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	return ws, root, outside
}

func TestResolve(t *testing.T) {
	ws, root, outside := newTestWorkspace(t)
	tests := []struct {
		name    string
		path    string
		want    string // expected result when no error
		wantErr string // substring of the expected error
	}{
		{name: "relative file", path: "a.txt", want: filepath.Join(root, "a.txt")},
		{name: "absolute file", path: filepath.Join(root, "sub", "b.txt"), want: filepath.Join(root, "sub", "b.txt")},
		{name: "root itself", path: ".", want: root},
		{name: "root absolute", path: root, want: root},
		{name: "unclean inside", path: "sub/../sub/./b.txt", want: filepath.Join(root, "sub", "b.txt")},
		{name: "new file", path: "new/dir/c.txt", want: filepath.Join(root, "new", "dir", "c.txt")},
		{name: "link inside", path: "in-link/b.txt", want: filepath.Join(root, "sub", "b.txt")},
		{name: "new file under inside link", path: "in-link/new.txt", want: filepath.Join(root, "sub", "new.txt")},
		{name: "dotdot escape", path: "../outside/secret", wantErr: "is outside the workspace"},
		{name: "absolute outside", path: "/etc/passwd", wantErr: "path /etc/passwd is outside the workspace " + root},
		{name: "dir link escape", path: "out-link/secret", wantErr: "resolves to " + filepath.Join(outside, "secret")},
		{name: "new file under escaping link", path: "out-link/new.txt", wantErr: "outside the workspace"},
		{name: "file link escape", path: "file-out", wantErr: "outside the workspace"},
		{name: "dangling link escape", path: "dangling", wantErr: "outside the workspace"},
		{name: "dotdot through inside link", path: "in-link/../a.txt", want: filepath.Join(root, "a.txt")},
		{name: "link loop", path: "loop/x", wantErr: "too many levels of symbolic links"},
		{name: "empty", path: "", wantErr: "empty path"},
		{name: "nul byte", path: "a\x00b", wantErr: "NUL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ws.Resolve(tt.path)
			if tt.wantErr != "" {
				if err == nil {
					t.Fatalf("Resolve(%q) = %q, want error containing %q", tt.path, got, tt.wantErr)
				}
				if !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Resolve(%q) error = %q, want it to contain %q", tt.path, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Resolve(%q) error: %v", tt.path, err)
			}
			if got != tt.want {
				t.Fatalf("Resolve(%q) = %q, want %q", tt.path, got, tt.want)
			}
		})
	}
}

func TestNewWorkspace(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(base, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, filepath.Join(base, "alias")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		root    string
		want    string
		wantErr string
	}{
		{name: "plain dir", root: real, want: real},
		{name: "symlinked root is resolved", root: filepath.Join(base, "alias"), want: real},
		{name: "unclean root", root: real + "/./", want: real},
		{name: "missing", root: filepath.Join(base, "missing"), wantErr: "no such file"},
		{name: "not a dir", root: filepath.Join(base, "file"), wantErr: "not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, err := NewWorkspace(tt.root)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("NewWorkspace(%q) error = %v, want %q", tt.root, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ws.Root() != tt.want {
				t.Fatalf("Root() = %q, want %q", ws.Root(), tt.want)
			}
		})
	}
}

func TestRelativeRootIsMadeAbsolute(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	ws, err := NewWorkspace(".")
	if err != nil {
		t.Fatal(err)
	}
	if ws.Root() != dir {
		t.Fatalf("Root() = %q, want %q", ws.Root(), dir)
	}
}

func TestRelAndContains(t *testing.T) {
	ws, root, outside := newTestWorkspace(t)
	tests := []struct {
		abs      string
		rel      string
		contains bool
	}{
		{abs: root, rel: ".", contains: true},
		{abs: filepath.Join(root, "sub", "b.txt"), rel: "sub/b.txt", contains: true},
		{abs: outside, rel: outside, contains: false},
		{abs: root + "-sibling", rel: root + "-sibling", contains: false},
	}
	for _, tt := range tests {
		if got := ws.Contains(tt.abs); got != tt.contains {
			t.Errorf("Contains(%q) = %v, want %v", tt.abs, got, tt.contains)
		}
		if got := ws.Rel(tt.abs); got != tt.rel {
			t.Errorf("Rel(%q) = %q, want %q", tt.abs, got, tt.rel)
		}
	}
	if got := ws.Abs("x/../y"); got != filepath.Join(root, "y") {
		t.Errorf("Abs = %q", got)
	}
}

func TestAddDir(t *testing.T) {
	ws, root, outside := newTestWorkspace(t)
	base := filepath.Dir(root)
	extra := filepath.Join(base, "extra")
	beyond := filepath.Join(base, "beyond")
	for _, d := range []string{filepath.Join(extra, "sub"), beyond} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range map[string]string{
		"escape":   beyond,                           // a directory outside every allowed root
		"to-root":  filepath.Join(root, "a.txt"),     // a link back into the workspace
		"dangling": filepath.Join(beyond, "new.txt"), // where a write would land outside
	} {
		if err := os.Symlink(target, filepath.Join(extra, name)); err != nil {
			t.Fatal(err)
		}
	}
	// Added through a symlink: stored resolved.
	if err := os.Symlink(extra, filepath.Join(base, "extra-alias")); err != nil {
		t.Fatal(err)
	}
	if err := ws.AddDir(filepath.Join(base, "extra-alias")); err != nil {
		t.Fatal(err)
	}
	if got := ws.Dirs(); len(got) != 1 || got[0] != extra {
		t.Fatalf("Dirs() = %q, want [%s]", got, extra)
	}

	tests := []struct {
		path    string
		want    string
		wantErr string
	}{
		{path: filepath.Join(extra, "sub", "f.go"), want: filepath.Join(extra, "sub", "f.go")},
		{path: extra, want: extra},
		{path: filepath.Join(extra, "to-root"), want: filepath.Join(root, "a.txt")},
		{path: filepath.Join(extra, "escape", "x"), wantErr: "outside the workspace"},
		{path: filepath.Join(extra, "dangling"), wantErr: "outside the workspace"},
		{path: filepath.Join(extra, "..", "beyond", "x"), wantErr: "outside the workspace"},
		{path: filepath.Join(outside, "secret"), wantErr: "outside the workspace"},
		{path: extra + "-sibling/x", wantErr: "outside the workspace"},
		{path: "a.txt", want: filepath.Join(root, "a.txt")}, // relative paths stay relative to the root
	}
	for _, tt := range tests {
		got, err := ws.Resolve(tt.path)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Resolve(%q) = %q, %v; want error %q", tt.path, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", tt.path, got, err, tt.want)
		}
	}
	if !ws.Contains(filepath.Join(extra, "sub")) || ws.Contains(beyond) {
		t.Error("Contains disagrees with the added dir")
	}
	if got := ws.Rel(filepath.Join(extra, "sub")); got != filepath.Join(extra, "sub") {
		t.Errorf("Rel of an added dir's path = %q, want it unchanged", got)
	}
	if got := ws.Roots(); len(got) != 2 || got[0] != root || got[1] != extra {
		t.Errorf("Roots() = %q", got)
	}
}

func TestAddDirRules(t *testing.T) {
	ws, root, outside := newTestWorkspace(t)
	if err := ws.AddDir(filepath.Join(root, "sub")); err != nil || len(ws.Dirs()) != 0 {
		t.Fatalf("adding a dir inside the root: %v, Dirs %q", err, ws.Dirs())
	}
	if err := ws.AddDir("/"); err == nil {
		t.Fatal("adding / must fail")
	}
	if err := ws.AddDir(filepath.Join(outside, "secret")); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("adding a file: %v", err)
	}
	if err := ws.AddDir(filepath.Join(outside, "missing")); err == nil {
		t.Fatal("adding a missing dir must fail")
	}
	inner := filepath.Join(outside, "inner")
	if err := os.Mkdir(inner, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := ws.AddDir(inner); err != nil {
		t.Fatal(err)
	}
	if err := ws.AddDir(outside); err != nil {
		t.Fatal(err)
	}
	if got := ws.Dirs(); len(got) != 1 || got[0] != outside {
		t.Fatalf("an enclosing dir should replace the inner one: %q", got)
	}
	if err := ws.AddDir(inner); err != nil || len(ws.Dirs()) != 1 {
		t.Fatalf("re-adding a covered dir: %v %q", err, ws.Dirs())
	}
}

// TestRootOps: the os.Root-based operations reach files inside (through a
// link that stays inside, too) and refuse, with the workspace's wording,
// every way out: a link to a directory or file outside, a dangling link
// leading out, "..", an absolute path elsewhere, a loop.
func TestRootOps(t *testing.T) {
	w, root, outside := newTestWorkspace(t)
	if b, err := w.ReadFile(filepath.Join(root, "in-link", "b.txt")); err != nil || string(b) != "x" {
		t.Fatalf("ReadFile through in-link = %q, %v", b, err)
	}
	if b, err := w.ReadFile("sub/b.txt"); err != nil || string(b) != "x" {
		t.Fatalf("ReadFile of a relative path = %q, %v", b, err)
	}
	if _, err := w.Stat(root); err != nil {
		t.Fatalf("Stat of the root: %v", err)
	}
	if fi, err := w.Lstat(filepath.Join(root, "out-link")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("Lstat of out-link = %v, %v", fi, err)
	}
	if es, err := w.ReadDir(root); err != nil || len(es) == 0 || es[0].Name() > es[len(es)-1].Name() {
		t.Fatalf("ReadDir of the root = %v, %v", es, err)
	}
	out := []string{
		filepath.Join(root, "out-link", "secret"), filepath.Join(root, "file-out"),
		filepath.Join(root, "dangling"), filepath.Join(root, "sub", "..", "..", "outside", "secret"),
		filepath.Join(outside, "secret"), "/etc/passwd", filepath.Join(root, "loop"),
	}
	for _, p := range out {
		if _, err := w.ReadFile(p); err == nil {
			t.Errorf("ReadFile(%s) succeeded", p)
		}
		if _, err := w.Stat(p); err == nil {
			t.Errorf("Stat(%s) succeeded", p)
		}
		if f, err := w.Open(p, os.O_WRONLY|os.O_CREATE, 0o644); err == nil {
			f.Close()
			t.Errorf("Open(%s) for writing succeeded", p)
		}
		if err := w.WriteFileAtomic(p, []byte("PROOF"), 0o644); err == nil {
			t.Errorf("WriteFileAtomic(%s) succeeded", p)
		}
	}
	for _, p := range out[:4] {
		if _, err := w.ReadFile(p); err == nil || !strings.Contains(err.Error(), "outside the workspace") {
			t.Errorf("ReadFile(%s): %v, want the workspace's wording", p, err)
		}
	}
	if err := w.MkdirAll(filepath.Join(root, "out-link", "newdir"), 0o755); err == nil {
		t.Error("MkdirAll through out-link succeeded")
	}
	entries, _ := os.ReadDir(outside)
	if len(entries) != 1 || entries[0].Name() != "secret" {
		t.Errorf("outside now holds %v", entries)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "secret")); string(b) != "x" {
		t.Errorf("outside/secret = %q", b)
	}
}

// TestRootOpsAddedDir: a path in an added directory goes through that
// directory's root; RootFor names it relative to it.
func TestRootOpsAddedDir(t *testing.T) {
	w, _, outside := newTestWorkspace(t)
	if _, err := w.ReadFile(filepath.Join(outside, "secret")); err == nil {
		t.Fatal("read outside before AddDir")
	}
	if err := w.AddDir(outside); err != nil {
		t.Fatal(err)
	}
	if b, err := w.ReadFile(filepath.Join(outside, "secret")); err != nil || string(b) != "x" {
		t.Fatalf("ReadFile in the added dir = %q, %v", b, err)
	}
	r, rel, err := w.RootFor(filepath.Join(outside, "secret"))
	if err != nil || rel != "secret" || r.Name() != outside {
		t.Fatalf("RootFor = %v %q %v", r, rel, err)
	}
	if _, rel, _ := w.RootFor(outside); rel != "." {
		t.Fatalf("RootFor(the dir) rel = %q", rel)
	}
}

// TestWriteFileAtomic: the file is replaced whole (no temporary file left
// behind), keeps its permission bits, and a hard link to the old file keeps
// the old content.
func TestWriteFileAtomic(t *testing.T) {
	w, root, outside := newTestWorkspace(t)
	p := filepath.Join(root, "exec.sh")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o751); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteFileAtomic(p, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil || fi.Mode().Perm() != 0o751 {
		t.Fatalf("mode after replace = %v, %v; want 0751", fi.Mode(), err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new" {
		t.Fatalf("content = %q", b)
	}
	linked := filepath.Join(outside, "linked")
	if err := os.WriteFile(linked, []byte("original"), 0o644); err != nil {
		t.Fatal(err)
	}
	hl := filepath.Join(root, "hl")
	if err := os.Link(linked, hl); err != nil {
		t.Skipf("hard link: %v", err)
	}
	if !w.HardLinked(hl) || w.HardLinked(p) || w.HardLinked(filepath.Join(root, "nope")) || w.HardLinked(filepath.Join(root, "sub")) {
		t.Fatal("HardLinked is wrong")
	}
	if err := w.WriteFileAtomic(hl, []byte("PROOF"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(linked); string(b) != "original" {
		t.Fatalf("wrote through the hard link: %q", b)
	}
	if w.HardLinked(hl) {
		t.Fatal("still hard-linked after the replace")
	}
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".pincer-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
	if err := w.WriteFileAtomic(filepath.Join(root, "sub"), []byte("x"), 0o644); err == nil {
		t.Error("WriteFileAtomic over a directory succeeded")
	}
	if err := w.WriteFileAtomic(root, []byte("x"), 0o644); err == nil {
		t.Error("WriteFileAtomic of the root succeeded")
	}
}

// TestReal: Real resolves like Resolve but does not refuse outside paths.
func TestReal(t *testing.T) {
	w, root, outside := newTestWorkspace(t)
	for in, want := range map[string]string{
		"file-out":      filepath.Join(outside, "secret"),
		"out-link/x":    filepath.Join(outside, "x"),
		"in-link/b.txt": filepath.Join(root, "sub", "b.txt"),
	} {
		if got, err := w.Real(in); err != nil || got != want {
			t.Errorf("Real(%s) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := w.Real(""); err == nil {
		t.Error("Real of an empty path succeeded")
	}
}

// TestRootOpsRace: while a goroutine swaps a directory of the workspace for a
// symlink to the outside (atomically, renameat2 RENAME_EXCHANGE), 300
// resolve-then-write sequences never create a file outside.
func TestRootOpsRace(t *testing.T) {
	w, root, outside := newTestWorkspace(t)
	d, link := filepath.Join(root, "d"), filepath.Join(root, "d.link")
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if err := unix.Renameat2(unix.AT_FDCWD, d, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE); err != nil {
				t.Errorf("renameat2: %v", err)
				return
			}
		}
	}()
	ok := 0
	for i := range 300 {
		p := filepath.Join(root, "d", fmt.Sprintf("PROOF-%d", i))
		if _, err := w.Resolve(p); err != nil {
			continue
		}
		if err := w.WriteFileAtomic(p, []byte("PROOF"), 0o644); err == nil {
			ok++
		}
	}
	close(stop)
	<-done
	entries, _ := os.ReadDir(outside)
	leaked := 0
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "PROOF") || strings.Contains(e.Name(), ".pincer-") {
			leaked++
		}
	}
	t.Logf("300 writes: %d inside, %d outside", ok, leaked)
	if leaked != 0 {
		t.Fatalf("%d files created outside the workspace", leaked)
	}
}

// BenchmarkReadFile compares a read through the workspace's os.Root with a
// plain os.ReadFile of the same resolved path (what the tools did before).
func BenchmarkReadFile(b *testing.B) {
	w, root := benchWorkspace(b)
	p := filepath.Join(root, "a", "b", "f.txt")
	b.Run("os.ReadFile", func(b *testing.B) {
		for b.Loop() {
			if _, err := os.ReadFile(p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Workspace.ReadFile", func(b *testing.B) {
		for b.Loop() {
			if _, err := w.ReadFile(p); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkWriteFile compares the tools' old in-place os.WriteFile with
// WriteFileAtomic (temp file + rename through the os.Root).
func BenchmarkWriteFile(b *testing.B) {
	w, root := benchWorkspace(b)
	p := filepath.Join(root, "a", "b", "f.txt")
	data := make([]byte, 8<<10)
	b.Run("os.WriteFile", func(b *testing.B) {
		for b.Loop() {
			if err := os.WriteFile(p, data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Workspace.WriteFileAtomic", func(b *testing.B) {
		for b.Loop() {
			if err := w.WriteFileAtomic(p, data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// benchWorkspace is a workspace with an 8 KiB file at a/b/f.txt.
func benchWorkspace(b *testing.B) (*Workspace, string) {
	w, err := NewWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(w.Root(), "a", "b")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), make([]byte, 8<<10), 0o644); err != nil {
		b.Fatal(err)
	}
	return w, w.Root()
}
