package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
