package sandbox

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// makeTree creates files (paths ending in "/" are directories) and symlinks
// ("name -> target") under a fresh temporary directory and returns it.
func makeTree(t *testing.T, entries ...string) string {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if name, target, ok := strings.Cut(e, " -> "); ok {
			if err := os.Symlink(target, filepath.Join(base, name)); err != nil {
				t.Fatal(err)
			}
			continue
		}
		p := filepath.Join(base, e)
		if strings.HasSuffix(e, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return base
}

// grantStrings renders grants relative to base: "dir/" for a directory grant,
// "file" for a file grant, sorted.
func grantStrings(base string, gs []grant) []string {
	var out []string
	for _, g := range gs {
		rel, _ := filepath.Rel(base, g.path)
		if g.dir {
			rel += "/"
		}
		out = append(out, filepath.ToSlash(rel))
	}
	slices.Sort(out)
	return out
}

func TestCarve(t *testing.T) {
	base := makeTree(t,
		"ws/main.go", "ws/src/a.go", "ws/.pincer/settings.json",
		"ws/.git/HEAD", "ws/.git/config", "ws/.git/objects/ab/cd", "ws/.git/hooks/pre-commit",
		"ws/link -> /etc", "ws/.git/hooks-link -> hooks",
	)
	ws := filepath.Join(base, "ws")
	tests := []struct {
		name      string
		root      string
		protected []string
		want      []string
	}{
		{name: "nothing protected: the whole tree", root: ws, want: []string{"ws/"}},
		{name: "protected elsewhere", root: ws, protected: []string{filepath.Join(base, "other")}, want: []string{"ws/"}},
		{
			name:      "default protections",
			root:      ws,
			protected: []string{filepath.Join(ws, ".git", "hooks"), filepath.Join(ws, ".pincer")},
			// Not ws/ itself, not ws/.git/ itself, no symlinks, nothing under hooks or .pincer.
			want: []string{"ws/.git/HEAD", "ws/.git/config", "ws/.git/objects/", "ws/main.go", "ws/src/"},
		},
		{
			name:      "a missing protected path still keeps its parent closed",
			root:      ws,
			protected: []string{filepath.Join(ws, "src", "new")},
			want:      []string{"ws/.git/", "ws/.pincer/", "ws/main.go", "ws/src/a.go"},
		},
		{
			name:      "outer tree carved around an inner protected path",
			root:      base,
			protected: []string{filepath.Join(ws, ".pincer")},
			want:      []string{"ws/.git/", "ws/main.go", "ws/src/"},
		},
		{name: "the root itself protected", root: ws, protected: []string{ws}, want: nil},
		{name: "a single file", root: filepath.Join(ws, "main.go"), want: []string{"ws/main.go"}},
		{name: "a protected file", root: filepath.Join(ws, "main.go"), protected: []string{filepath.Join(ws, "main.go")}, want: nil},
		{name: "missing root", root: filepath.Join(base, "nope"), want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := grantStrings(base, carve(tt.root, tt.protected))
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("carve = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTreeGrants(t *testing.T) {
	base := makeTree(t, "ws/a", "ws/.pincer/x", "ws/.git/hooks/h", "ws/.git/HEAD", "tmp/t")
	ws := filepath.Join(base, "ws")
	trees := []treeSpec{
		{Path: ws, ReadOnly: []string{filepath.Join(ws, ".pincer"), filepath.Join(ws, ".git", "hooks")}, Mount: true},
		{Path: base}, // an outer tree (the temp dir holding the workspace)
	}
	got := grantStrings(base, treeGrants(trees, nil))
	want := []string{"tmp/", "ws/.git/HEAD", "ws/.git/HEAD", "ws/a", "ws/a"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("carved: %q, want %q", got, want)
	}
	// With both paths protected by mounts, nothing is carved.
	mounted := map[string]bool{filepath.Join(ws, ".pincer"): true, filepath.Join(ws, ".git", "hooks"): true}
	got = grantStrings(base, treeGrants(trees, mounted))
	want = []string{"./", "ws/"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("mounted: %q, want %q", got, want)
	}
}

func TestHelperArgsRoundTrip(t *testing.T) {
	spec := helperSpec{
		Landlock: true, MountNS: true, NetNS: true, CPUSeconds: 600, FileSize: 1 << 30, DropCaps: true,
		Trees: []treeSpec{{Path: "/w s", ReadOnly: []string{"/w s/.pincer"}, Mount: true, MakeDirs: []string{"/w s/.pincer"}}},
	}
	argv := []string{"bash", "-c", "echo --spec -- $HOME"}
	args, err := helperArgs(spec, argv)
	if err != nil {
		t.Fatal(err)
	}
	gotSpec, gotArgv, err := parseHelperArgs(args, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gotSpec, spec) || !reflect.DeepEqual(gotArgv, argv) {
		t.Fatalf("round trip: %+v %q", gotSpec, gotArgv)
	}
	if _, _, err := parseHelperArgs([]string{"--spec", "{}"}, &strings.Builder{}); err == nil {
		t.Fatal("want an error for a missing command")
	}
	if _, _, err := parseHelperArgs([]string{"--spec", "{", "--", "true"}, &strings.Builder{}); err == nil {
		t.Fatal("want an error for bad JSON")
	}
}
