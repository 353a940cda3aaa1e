package checkpoint

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The first-time user's case: turn 1 Edits f.txt, turn 2's Bash appends to
// it, creates new.txt and removes g.txt. Rewinding to before turn 2 and then
// to before turn 1, nothing else changed, must not call the first rewind's
// restores changes made outside pincer; a hand edit after it still is one.
func TestRewindTwice(t *testing.T) {
	ctx := context.Background()
	r, s, root := newRecorder(t)
	write(t, root, "f.txt", "one\n", 0o644)
	write(t, root, "g.txt", "gee\n", 0o644)
	orig := snapshot(t, root)
	p := r.Before(ctx, []string{filepath.Join(root, "f.txt")}, false)
	write(t, root, "f.txt", "ONE\n", 0o644)
	if _, ok, err := p.After(ctx, "s", "t1", "c1", "Edit"); !ok || err != nil {
		t.Fatal(ok, err)
	}
	afterTurn1 := snapshot(t, root)
	p = r.Before(ctx, nil, true)
	sh := exec.Command("sh", "-c", "echo more >> f.txt && echo new > new.txt && rm g.txt")
	sh.Dir = root
	if out, err := sh.CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	if _, ok, err := p.After(ctx, "s", "t2", "c2", "Bash"); !ok || err != nil {
		t.Fatal(ok, err)
	}
	turns := []string{"t1", "t2"}
	rewind := func(turn int) error {
		cps, _ := s.ListCheckpoints(ctx, "s")
		plan, err := r.Plan(ctx, cps, turns, turn)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = r.Rewind(ctx, "s", plan, false)
		return err
	}
	if err := rewind(2); err != nil {
		t.Fatalf("rewind to before turn 2: %v", err)
	}
	if got := snapshot(t, root); !equalSnap(got, afterTurn1) {
		t.Fatalf("after the first rewind %v, want %v", got, afterTurn1)
	}
	if err := rewind(1); err != nil {
		t.Fatalf("second rewind refused: %v", err)
	}
	if got := snapshot(t, root); !equalSnap(got, orig) {
		t.Fatalf("after the second rewind %v, want %v", got, orig)
	}
	write(t, root, "f.txt", "by hand\n", 0o644)
	if err := rewind(1); err == nil {
		t.Fatal("a hand edit after the rewinds was not a conflict")
	}
}

// A file tool that created pkg/sub/new.py: the rewind removes the file and
// the directories the call created, when empty; a directory that was there
// before (and one left non-empty) stays.
func TestRewindRemovesCreatedDirs(t *testing.T) {
	ctx := context.Background()
	r, s, root := newRecorder(t)
	if err := os.Mkdir(filepath.Join(root, "old"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := r.Before(ctx, []string{filepath.Join(root, "pkg/sub/new.py"), filepath.Join(root, "old/x.py"), filepath.Join(root, "keep/y.py")}, false)
	write(t, root, "pkg/sub/new.py", "print(1)\n", 0o644)
	write(t, root, "old/x.py", "x\n", 0o644)
	write(t, root, "keep/y.py", "y\n", 0o644)
	c, ok, err := p.After(ctx, "s", "t1", "c1", "apply_patch")
	if !ok || err != nil {
		t.Fatal(ok, err)
	}
	if got := len(c.Dirs); got != 3 { // pkg, pkg/sub, keep
		t.Fatalf("created dirs %v, want pkg, pkg/sub, keep", c.Dirs)
	}
	write(t, root, "keep/mine.txt", "a file of the person's\n", 0o644) // not in the plan, keeps keep/
	cps, _ := s.ListCheckpoints(ctx, "s")
	plan, err := r.Plan(ctx, cps, []string{"t1"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.Rewind(ctx, "s", plan, false); err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{"pkg", "old/x.py", "keep/y.py"} {
		if _, err := os.Lstat(filepath.Join(root, gone)); !os.IsNotExist(err) {
			t.Errorf("%s left after the rewind (%v)", gone, err)
		}
	}
	for _, kept := range []string{"old", "keep/mine.txt"} {
		if _, err := os.Lstat(filepath.Join(root, kept)); err != nil {
			t.Errorf("%s removed by the rewind: %v", kept, err)
		}
	}
}

func equalSnap(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
