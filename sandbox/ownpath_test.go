package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestOwnPATHEntries: which PATH entries pincer's own programs may come
// from: not relative ones, not those in a writable tree (as written, or
// through a link in one), but a read-only path of a tree and everything
// outside.
func TestOwnPATHEntries(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	ws, cargo, sys := filepath.Join(dir, "ws"), filepath.Join(dir, "cargo"), filepath.Join(dir, "usr", "bin")
	for _, d := range []string{filepath.Join(ws, ".venv", "bin"), filepath.Join(cargo, "bin"), sys, filepath.Join(dir, "home")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(ws, ".venv", "bin"), filepath.Join(dir, "home", "venv-bin")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(sys, filepath.Join(ws, "sys")); err != nil {
		t.Fatal(err)
	}
	trees := []treeSpec{{Path: ws}, {Path: cargo, ReadOnly: []string{filepath.Join(cargo, "bin")}}}
	g := pathGuard{writable: []string{ws, cargo}}
	path := joinPATH([]string{
		sys,                                    // kept
		filepath.Join(ws, ".venv", "bin"),      // in the workspace
		"bin",                                  // relative
		filepath.Join(cargo, "bin"),            // read-only in its tree: kept
		filepath.Join(dir, "home", "venv-bin"), // the person's link into the workspace
		filepath.Join(ws, "sys"),               // a link in the workspace, to a kept directory
		filepath.Join(ws, "missing", "bin"),    // not there yet, in the workspace
		filepath.Join(dir, "nowhere"),          // missing, outside: kept
	})
	keep, dropped := ownPATHEntries(path, trees, g)
	wantKeep := []string{sys, filepath.Join(cargo, "bin"), filepath.Join(dir, "nowhere")}
	if !slices.Equal(keep, wantKeep) {
		t.Errorf("kept %q, want %q (dropped %q)", keep, wantKeep, dropped)
	}
	if len(dropped) != 5 {
		t.Errorf("dropped %q, want 5 entries", dropped)
	}
}

// TestGoEnvCachesRunsNoToolchain (red team r24c F3): pincer's own `go env`
// runs from "/" with GOTOOLCHAIN=local, so no go.mod of the workspace makes
// it run a toolchain from GOMODCACHE, which commands may write.
func TestGoEnvCachesRunsNoToolchain(t *testing.T) {
	bin, log := t.TempDir(), filepath.Join(t.TempDir(), "go.log")
	fake := "#!/bin/sh\n{ pwd; echo \"GOTOOLCHAIN=$GOTOOLCHAIN\"; } > " + log + "\necho /c/go-build\necho /c/mod\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	t.Setenv("GOTOOLCHAIN", "auto")
	t.Chdir(t.TempDir())
	goCache, modCache, ok := goEnvCaches()
	if !ok || goCache != "/c/go-build" || modCache != "/c/mod" {
		t.Fatalf("goEnvCaches = %q %q %v", goCache, modCache, ok)
	}
	b, _ := os.ReadFile(log)
	if string(b) != "/\nGOTOOLCHAIN=local\n" {
		t.Errorf("go env ran in / with GOTOOLCHAIN=local? it saw:\n%s", b)
	}
}
