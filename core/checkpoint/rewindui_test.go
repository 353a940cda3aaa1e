package checkpoint

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// bash runs script in root as a recorded command call of turn.
func bash(t *testing.T, r *Recorder, root, turn, call, script string) {
	t.Helper()
	ctx := context.Background()
	p := r.Before(ctx, nil, true)
	sh := exec.Command("sh", "-c", script)
	sh.Dir = root
	if out, err := sh.CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	if _, _, err := p.After(ctx, "s", turn, call, "Bash"); err != nil {
		t.Fatal(err)
	}
}

// rewindTo plans and applies the rewind of session "s" to before turn.
func rewindTo(t *testing.T, r *Recorder, turns []string, turn int, force bool) []Restore {
	t.Helper()
	ctx := context.Background()
	cps, err := r.store.ListCheckpoints(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := r.Plan(ctx, cps, turns, turn)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.Rewind(ctx, "s", plan, force); err != nil {
		t.Fatal(err)
	}
	return plan
}

// Directories a Bash call created are removed by the rewind when empty
// after it; one that held a file before, or holds the person's, stays.
func TestRewindRemovesDirsBashCreated(t *testing.T) {
	r, _, root := newRecorder(t)
	write(t, root, "src/a.txt", "a\n", 0o644)
	bash(t, r, root, "t0", "c0", "true") // the baseline
	bash(t, r, root, "t1", "c1", "mkdir -p gen/deep/er && echo x > gen/deep/er/out.txt && mkdir -p src/new && echo y > src/new/b.txt && mkdir mine && echo z > mine/t.txt")
	write(t, root, "mine/person.txt", "the person's\n", 0o644)
	rewindTo(t, r, []string{"t0", "t1"}, 2, false)
	for _, gone := range []string{"gen", "src/new", "mine/t.txt"} {
		if _, err := os.Lstat(filepath.Join(root, gone)); !os.IsNotExist(err) {
			t.Errorf("%s left after the rewind (%v)", gone, err)
		}
	}
	for _, kept := range []string{"src/a.txt", "mine/person.txt"} {
		if _, err := os.Lstat(filepath.Join(root, kept)); err != nil {
			t.Errorf("%s removed by the rewind: %v", kept, err)
		}
	}
}

// After a rewind, a Bash call that touches nothing records nothing: the
// rewind's restores are not taken for the command's changes.
func TestBashAfterRewindRecordsOnlyItsOwn(t *testing.T) {
	ctx := context.Background()
	r, s, root := newRecorder(t)
	write(t, root, "f.txt", "one\n", 0o644)
	bash(t, r, root, "t1", "c1", "echo two > f.txt && echo n > new.txt")
	rewindTo(t, r, []string{"t1", "t2"}, 1, false)
	if got := snapshot(t, root); got["f.txt"] != "-rw-r--r-- one\n" || len(got) != 1 {
		t.Fatalf("after the rewind %v", got)
	}
	bash(t, r, root, "t2", "c2", "echo other > other.txt")
	cps, _ := s.ListCheckpoints(ctx, "s")
	last := cps[len(cps)-1]
	if last.ToolCallID != "c2" || len(last.Files) != 1 || last.Files[0].Path != "other.txt" {
		t.Fatalf("the Bash call after the rewind recorded %+v", last.Files)
	}
}

// RestoreDiff is what the rewind would do to the tree as it is now; a file
// changed by hand since is announced and its diff loses the hand edit.
func TestRestoreDiff(t *testing.T) {
	ctx := context.Background()
	r, s, root := newRecorder(t)
	write(t, root, "f.txt", "one\n", 0o644)
	write(t, root, "g.txt", "gee\n", 0o644)
	bash(t, r, root, "t1", "c1", "echo two > f.txt && echo n > new.txt && rm g.txt")
	write(t, root, "new.txt", "by hand\n", 0o644)
	cps, _ := s.ListCheckpoints(ctx, "s")
	plan, err := r.Plan(ctx, cps, []string{"t1"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	d, err := r.RestoreDiff(ctx, plan)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"diff --git a/f.txt b/f.txt\n", "-two\n+one\n",
		"diff --git a/g.txt b/g.txt\nnew file mode 100644\n", "+gee\n",
		"# new.txt: changed outside pincer since the checkpoint (modified since)\n",
		"diff --git a/new.txt b/new.txt\ndeleted file mode 100644\n", "-by hand\n",
	} {
		if !strings.Contains(d, want) {
			t.Errorf("restore diff lacks %q:\n%s", want, d)
		}
	}
	if plan[2].Path != "new.txt" || plan[2].Now.Hash != Hash([]byte("by hand\n")) {
		t.Errorf("plan's Now of new.txt %+v", plan[2])
	}
}

// A name holding a tab, a newline, a quote or a non-ASCII byte is C-quoted
// as git quotes it, and git apply takes the diff back byte for byte.
func TestDiffQuotesNamesForGitApply(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	ctx := context.Background()
	r, s, root := newRecorder(t)
	names := []string{"tab\there.txt", "new\nline.txt", `q"uote.txt`, "caf\u00e9.txt", "esc\x1b[31m.txt"}
	bash(t, r, root, "t0", "c0", "true")
	p := r.Before(ctx, nil, true)
	for _, n := range names {
		write(t, root, n, "content of "+n+"\n", 0o644)
	}
	if _, _, err := p.After(ctx, "s", "t1", "c1", "Bash"); err != nil {
		t.Fatal(err)
	}
	cps, _ := s.ListCheckpoints(ctx, "s")
	d, err := Diff(ctx, s, Combine(cps))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`diff --git "a/tab\there.txt" "b/tab\there.txt"`, `+++ "b/new\nline.txt"`,
		`"a/q\"uote.txt"`, `"a/caf\303\251.txt"`, `"a/esc\033[31m.txt"`} {
		if !strings.Contains(d, want) {
			t.Errorf("diff lacks %s:\n%s", want, d)
		}
	}
	for _, l := range strings.Split(d, "\n") {
		if !strings.HasPrefix(l, "+") && strings.ContainsAny(l, "\x1b\t") {
			t.Errorf("a raw control byte in a header line: %q", l)
		}
	}
	dst := t.TempDir()
	git := exec.Command("git", "apply", "-")
	git.Dir, git.Stdin = dst, strings.NewReader(d)
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git apply: %v\n%s", err, out)
	}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dst, n))
		if err != nil || string(b) != "content of "+n+"\n" {
			t.Errorf("%q after git apply: %q, %v", n, b, err)
		}
	}
}
