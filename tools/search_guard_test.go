package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// searchBackends are the Grep backends to try: the Go walk always, ripgrep
// when it is installed.
func searchBackends(t *testing.T) map[string]Grep {
	b := map[string]Grep{"fallback": {Backend: GrepFallback}}
	if ripgrepPath() != "" {
		b["ripgrep"] = Grep{Backend: GrepRipgrep}
	} else {
		t.Log("rg is not installed: only the Go fallback is tried")
	}
	return b
}

// TestSearchNeverFollowsLinksOut: Grep (both backends) and Glob walking the
// workspace do not follow symlinks to an outside directory or file, in many
// shapes; no result names or shows the outside marker.
func TestSearchNeverFollowsLinksOut(t *testing.T) {
	env, root := newTestEnv(t)
	outside, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, outside, "secret.txt", "MARKER-SECRET\n")
	writeTestFile(t, outside, "deep/secret.go", "MARKER-SECRET\n")
	writeTestFile(t, root, "src/ok.txt", "MARKER-INSIDE\n")
	for name, target := range map[string]string{
		"dirlink":         outside,
		"src/rellink":     "../../" + filepath.Base(outside),
		"filelink.txt":    filepath.Join(outside, "secret.txt"),
		"src/deeplink.go": filepath.Join(outside, "deep", "secret.go"),
		"chain":           "dirlink",
	} {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	for bname, g := range searchBackends(t) {
		for _, mode := range []string{GrepFilesWithMatches, GrepContent, GrepCount} {
			for _, path := range []string{"", ".", "src"} {
				res, err := runTool(t, g, env, GrepInput{Pattern: "MARKER", Path: path, OutputMode: mode})
				if err != nil {
					t.Fatalf("%s %s %q: %v", bname, mode, path, err)
				}
				if strings.Contains(res.Output, "SECRET") || strings.Contains(res.Output, "secret") || strings.Contains(res.Output, "link") {
					t.Errorf("%s %s in %q followed a link out:\n%s", bname, mode, path, res.Output)
				}
				if !strings.Contains(res.Output, "ok.txt") && mode != GrepContent || mode == GrepContent && !strings.Contains(res.Output, "MARKER-INSIDE") {
					t.Errorf("%s %s in %q missed the inside file:\n%s", bname, mode, path, res.Output)
				}
			}
		}
	}
	for _, pattern := range []string{"**/*", "**/*.txt", "**/*.go", "*", "dirlink/*", "chain/**"} {
		res, err := runTool(t, Glob{}, env, GlobInput{Pattern: pattern})
		if err != nil {
			t.Fatalf("Glob %s: %v", pattern, err)
		}
		if strings.Contains(res.Output, "secret") || strings.Contains(res.Output, "link") {
			t.Errorf("Glob %s followed a link out:\n%s", pattern, res.Output)
		}
	}
	// Searching through a link by name is refused by the workspace guard.
	for _, path := range []string{"dirlink", "chain", "src/rellink", "filelink.txt"} {
		if _, err := runTool(t, Grep{Backend: GrepFallback}, env, GrepInput{Pattern: "MARKER", Path: path}); err == nil || !strings.Contains(err.Error(), "outside the workspace") {
			t.Errorf("Grep in %s: err = %v, want outside the workspace", path, err)
		}
		if _, err := runTool(t, Glob{}, env, GlobInput{Pattern: "*", Path: path}); err == nil || !strings.Contains(err.Error(), "outside the workspace") {
			t.Errorf("Glob in %s: err = %v, want outside the workspace", path, err)
		}
	}
}

// TestRipgrepFlagInjection: no value the model controls (pattern, glob, path)
// becomes a ripgrep flag. Each hostile value is tried in each place, through
// real rg when installed; the file content is a shell command that --pre=sh
// would run, and PROOF must never appear.
func TestRipgrepFlagInjection(t *testing.T) {
	hostile := []string{"--pre=sh", "--pre", "sh", "-z", "--search-zip", "--hostname-bin=sh",
		"--follow", "-L", "--no-ignore", "--files", "-f/etc/passwd", "--pre=./x.sh", "-e--pre=sh", "--", "-"}
	env, root := newTestEnv(t)
	writeTestFile(t, root, "a.txt", "touch PROOF\nneedle\n")
	writeTestFile(t, root, "x.sh", "touch PROOF\n")
	for _, v := range hostile {
		q := &grepQuery{root: root, target: root, targetDir: true, pattern: v, glob: v, mode: GrepContent}
		args := ripgrepArgs(q)
		dash := -1
		for i, a := range args {
			if a == "--" {
				dash = i
				break
			}
		}
		if dash < 0 {
			t.Fatalf("args have no --: %q", args)
		}
		for _, a := range args[:dash] {
			if a == v {
				t.Errorf("value %q is an argument of its own before --: %q", v, args)
			}
		}
	}
	rg := ripgrepPath()
	if rg == "" {
		t.Skip("rg is not installed")
	}
	g := Grep{Backend: GrepRipgrep}
	for _, v := range hostile {
		for _, in := range []GrepInput{
			{Pattern: v}, {Pattern: "needle", Glob: v}, {Pattern: v, Glob: v}, {Pattern: "needle", Path: v},
			{Pattern: v, OutputMode: GrepCount}, {Pattern: v, OutputMode: GrepFilesWithMatches, Glob: "*.txt"},
		} {
			_, _ = runTool(t, g, env, in)
			if _, err := os.Lstat(filepath.Join(root, "PROOF")); err == nil {
				t.Fatalf("input %+v ran a preprocessor: PROOF exists", in)
			}
		}
	}
}

// TestReadOutsideAfterApproval is issue 12 item 3: a Read outside the
// workspace that the permission layer approved for this call reads the file;
// the same Read without the grant, with a grant for another call or another
// path, fails; Glob and Grep outside work the same way; a grant never lets
// Write or Edit out.
func TestReadOutsideAfterApproval(t *testing.T) {
	env, _ := newTestEnv(t)
	outside, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	file := writeTestFile(t, outside, "notes.txt", "outside notes\n")
	writeTestFile(t, outside, "other.txt", "other\n")

	if _, err := runTool(t, Read{}, env, ReadInput{FilePath: file}); err == nil || !strings.Contains(err.Error(), "outside the workspace") {
		t.Fatalf("Read without a grant: %v", err)
	}
	env.Files.GrantOutside("other-call", file)
	env.Files.GrantOutside(env.ToolCallID, filepath.Join(outside, "other.txt"))
	if _, err := runTool(t, Read{}, env, ReadInput{FilePath: file}); err == nil {
		t.Fatal("Read with a grant for another call or path succeeded")
	}
	env.Files.GrantOutside(env.ToolCallID, file, outside)
	res, err := runTool(t, Read{}, env, ReadInput{FilePath: file})
	if err != nil || !strings.Contains(res.Output, "outside notes") {
		t.Fatalf("approved Read = %q, %v", res.Output, err)
	}
	res, err = runTool(t, Glob{}, env, GlobInput{Pattern: "*.txt", Path: outside})
	if err != nil || !strings.Contains(res.Output, "notes.txt") {
		t.Fatalf("approved Glob = %q, %v", res.Output, err)
	}
	for name, g := range searchBackends(t) {
		res, err = runTool(t, g, env, GrepInput{Pattern: "notes", Path: outside})
		if err != nil || !strings.Contains(res.Output, "notes.txt") {
			t.Fatalf("approved Grep (%s) = %q, %v", name, res.Output, err)
		}
	}
	// A grant is for reading only.
	if _, err := runTool(t, Write{}, env, WriteInput{FilePath: file, Content: "PROOF\n"}); err == nil {
		t.Fatal("Write outside with a read grant succeeded")
	}
	if _, err := runTool(t, Edit{}, env, EditInput{FilePath: file, OldString: "outside", NewString: "PROOF"}); err == nil {
		t.Fatal("Edit outside with a read grant succeeded")
	}
	if b, _ := os.ReadFile(file); string(b) != "outside notes\n" {
		t.Fatalf("the outside file changed: %q", b)
	}
	env.Files.RevokeOutside(env.ToolCallID)
	if _, err := runTool(t, Read{}, env, ReadInput{FilePath: file}); err == nil {
		t.Fatal("Read after RevokeOutside succeeded")
	}
}

// TestPathsShowWhereLinksLead: a tool's Paths give the permission layer the
// real location of a path, so a symlink inside the workspace that leads out is
// judged as the outside path it is.
func TestPathsShowWhereLinksLead(t *testing.T) {
	env, root := newTestEnv(t)
	outside, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, outside, "secret.txt", "x")
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(outside, "secret.txt")
	for _, tool := range []Tool{Typed(Read{}), Typed(Write{}), Typed(Edit{})} {
		got := Paths(tool, env, mustJSON(t, map[string]string{"file_path": "out/secret.txt"}))
		if len(got) != 1 || got[0] != want {
			t.Errorf("%s.Paths = %v, want [%s]", tool.Spec().Name, got, want)
		}
	}
	if got := Paths(Typed(Grep{}), env, mustJSON(t, GrepInput{Pattern: "x", Path: "out"})); len(got) != 1 || got[0] != outside {
		t.Errorf("Grep.Paths = %v, want [%s]", got, outside)
	}
}

// TestAddedDirThroughItsRoot: every file tool works in a directory added with
// AddDir (through that directory's own os.Root), and a link from the
// workspace into the added directory is followed (Resolve crosses to it).
func TestAddedDirThroughItsRoot(t *testing.T) {
	env, root := newTestEnv(t)
	extra, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := env.Workspace.AddDir(extra); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(extra, "sub", "x.txt")
	if _, err := runTool(t, Write{}, env, WriteInput{FilePath: f, Content: "hello extra\n"}); err != nil {
		t.Fatalf("Write in the added dir: %v", err)
	}
	readFirst(t, env, f)
	if _, err := runTool(t, Edit{}, env, EditInput{FilePath: f, OldString: "hello", NewString: "bye"}); err != nil {
		t.Fatalf("Edit in the added dir: %v", err)
	}
	if res, err := runTool(t, Glob{}, env, GlobInput{Pattern: "**/*.txt", Path: extra}); err != nil || !strings.Contains(res.Output, "x.txt") {
		t.Fatalf("Glob in the added dir = %q, %v", res.Output, err)
	}
	if res, err := runTool(t, Grep{Backend: GrepFallback}, env, GrepInput{Pattern: "bye", Path: extra}); err != nil || !strings.Contains(res.Output, "x.txt") {
		t.Fatalf("Grep in the added dir = %q, %v", res.Output, err)
	}
	if err := os.Symlink(filepath.Join(extra, "sub"), filepath.Join(root, "to-extra")); err != nil {
		t.Fatal(err)
	}
	if res, err := runTool(t, Read{}, env, ReadInput{FilePath: "to-extra/x.txt"}); err != nil || !strings.Contains(res.Output, "bye extra") {
		t.Fatalf("Read through a link into the added dir = %q, %v", res.Output, err)
	}
}
