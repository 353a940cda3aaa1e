package checkpoint

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"pincer/persist"
	"pincer/persist/memory"
)

func write(t *testing.T, root, rel, content string, mode os.FileMode) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

// snapshot is every file under root (not .git) as "path mode content".
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		fi, _ := os.Lstat(p)
		if fi.Mode()&os.ModeSymlink != 0 {
			l, _ := os.Readlink(p)
			out[rel] = "link " + l
			return nil
		}
		b, _ := os.ReadFile(p)
		out[rel] = fi.Mode().String() + " " + string(b)
		return nil
	})
	return out
}

func newRecorder(t *testing.T) (*Recorder, persist.Store, string) {
	t.Helper()
	root := t.TempDir()
	s := memory.New()
	r, err := New(s, root, Options{MaxFileBytes: 1 << 10})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, s, root
}

// A listed-path call (an Edit, a Write of a new file) and a command (a
// shell's sed -i, rm, a new file, a mode change) are recorded; the turn's
// combined diff names all of them; the rewind restores the tree byte for
// byte; a file changed by hand since is refused without force.
func TestRecordDiffRewind(t *testing.T) {
	ctx := context.Background()
	r, s, root := newRecorder(t)
	write(t, root, "a.txt", "one\ntwo\n", 0o644)
	write(t, root, "b.txt", "bee\n", 0o644)
	write(t, root, "gone.txt", "bye\n", 0o600)
	write(t, root, ".gitignore", "build/\n*.log\n", 0o644)
	write(t, root, "build/out.bin", "x", 0o644)
	write(t, root, "big.dat", strings.Repeat("z", 2000), 0o644)
	before := snapshot(t, root)

	p := r.Before(ctx, []string{filepath.Join(root, "a.txt")}, false)
	write(t, root, "a.txt", "one\nTWO\n", 0o644)
	if _, ok, err := p.After(ctx, "s1", "t1", "c1", "Edit"); !ok || err != nil {
		t.Fatalf("Edit not recorded: %v %v", ok, err)
	}
	p = r.Before(ctx, []string{filepath.Join(root, "new.txt")}, false)
	write(t, root, "new.txt", "fresh\n", 0o644)
	if _, ok, err := p.After(ctx, "s1", "t1", "c2", "Write"); !ok || err != nil {
		t.Fatalf("Write not recorded: %v %v", ok, err)
	}
	p = r.Before(ctx, nil, true)
	sh := exec.Command("sh", "-c", "sed -i s/bee/BEE/ b.txt && rm gone.txt && echo third > third.txt && chmod +x a.txt && echo junk > x.log && echo y > build/more && ln -s /etc/passwd link")
	sh.Dir = root
	if out, err := sh.CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	c, ok, err := p.After(ctx, "s1", "t1", "c3", "Bash")
	if !ok || err != nil {
		t.Fatalf("Bash not recorded: %v %v", ok, err)
	}
	var paths []string
	for _, f := range c.Files {
		paths = append(paths, f.Path)
	}
	if got, want := strings.Join(paths, " "), "a.txt b.txt gone.txt link third.txt"; got != want {
		t.Fatalf("Bash checkpoint files %q, want %q (ignored files untracked)", got, want)
	}
	if !strings.Contains(strings.Join(c.Noted, "\n"), "build/: ignored") {
		t.Errorf("ignored dir not noted: %v", c.Noted)
	}
	cps, _ := s.ListCheckpoints(ctx, "s1")
	d, err := Diff(ctx, s, Combine(OfTurns(cps, "t1")))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"+TWO", "new file mode 100644", "+fresh", "-bee", "+BEE", "deleted file mode 100644", "+third", "new mode 100755", "+/etc/passwd"} {
		if !strings.Contains(d, want) {
			t.Errorf("diff lacks %q:\n%s", want, d)
		}
	}

	write(t, root, "b.txt", "by hand\n", 0o644)
	plan, err := r.Plan(ctx, cps, []string{"t1"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Apply(ctx, plan, false); err == nil || !strings.Contains(err.Error(), "b.txt: modified since") {
		t.Fatalf("Apply over a hand edit: %v", err)
	}
	if got := snapshot(t, root)["b.txt"]; !strings.Contains(got, "by hand") {
		t.Fatalf("refused rewind wrote b.txt: %q", got)
	}
	if err := r.Apply(ctx, plan, true); err != nil {
		t.Fatal(err)
	}
	after := snapshot(t, root)
	delete(after, "x.log") // ignored: not the session's to restore
	delete(after, "build/more")
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s after rewind = %q, want %q", k, after[k], v)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			t.Errorf("%s left after rewind", k)
		}
	}
}

// A command that replaces a directory by a symlink out of the workspace:
// the rewind removes the link and never writes through it.
func TestRewindDoesNotFollowSymlinkOut(t *testing.T) {
	ctx := context.Background()
	r, s, root := newRecorder(t)
	outside := t.TempDir()
	write(t, root, "d/f.txt", "inside\n", 0o644)
	p := r.Before(ctx, nil, true)
	sh := exec.Command("sh", "-c", "rm -r d && ln -s "+outside+" d")
	sh.Dir = root
	if out, err := sh.CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	if _, ok, err := p.After(ctx, "s1", "t1", "c1", "Bash"); !ok || err != nil {
		t.Fatal(ok, err)
	}
	cps, _ := s.ListCheckpoints(ctx, "s1")
	plan, err := r.Plan(ctx, cps, []string{"t1"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Apply(ctx, plan, false); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Fatalf("the rewind wrote outside the workspace: %v", entries)
	}
	if b, err := os.ReadFile(filepath.Join(root, "d/f.txt")); err != nil || string(b) != "inside\n" {
		t.Fatalf("d/f.txt = %q, %v", b, err)
	}
}

// Unchanged files cost nothing after the first scan; an unchanged tree makes
// no checkpoint.
func TestScanNoChange(t *testing.T) {
	ctx := context.Background()
	r, s, root := newRecorder(t)
	write(t, root, "a.txt", "a", 0o644)
	p := r.Before(ctx, nil, true)
	if _, ok, err := p.After(ctx, "s1", "t1", "c1", "Bash"); ok || err != nil {
		t.Fatalf("a command that changed nothing recorded %v, %v", ok, err)
	}
	if cps, _ := s.ListCheckpoints(ctx, "s1"); len(cps) != 0 {
		t.Fatalf("checkpoints: %+v", cps)
	}
}
