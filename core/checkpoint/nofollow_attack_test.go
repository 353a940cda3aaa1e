package checkpoint

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"pincer/persist"
)

// marker is the harmless payload of the person's files the attacks aim at.
const marker = "PERSON-OWNED marker\n"

// shTurn runs script in root through sh (a real process) as one Bash call
// of turn turnID of session "s", recorded by r's scan.
func shTurn(t *testing.T, r *Recorder, root, turnID, script string) {
	t.Helper()
	ctx := context.Background()
	p := r.Before(ctx, nil, true)
	sh := exec.Command("sh", "-c", script)
	sh.Dir = root
	if out, err := sh.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v %s", script, err, out)
	}
	if _, _, err := p.After(ctx, "s", turnID, "c-"+turnID, "Bash"); err != nil {
		t.Fatal(err)
	}
}

// planTurn1 is the plan of the rewind of session "s" to before its first
// turn of turns.
func planTurn1(t *testing.T, r *Recorder, s persist.Store, turns ...string) []Restore {
	t.Helper()
	cps, err := s.ListCheckpoints(context.Background(), "s")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := r.Plan(context.Background(), cps, turns, 1)
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

// personFiles are the person's files a planted link aims at: git's hooks,
// config and branch ref, a source file with a hand edit, the agent's
// settings and instructions.
var personFiles = []string{
	".git/hooks/pre-commit", ".git/config", ".git/refs/heads/main",
	"src/main.go", ".claude/settings.json", ".pincer/config.toml", "sub/AGENTS.md",
}

// newWorkspace is a recorder over a git repository holding every one of
// personFiles (marker content; src/main.go with handEdit, written again
// after the turns by the test that runs turns).
func newWorkspace(t *testing.T) (*Recorder, persist.Store, string) {
	t.Helper()
	r, s, root := newRecorder(t)
	if out, err := exec.Command("git", "init", "-q", "-b", "main", root).CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	for _, f := range personFiles {
		write(t, root, f, marker, 0o755)
	}
	write(t, root, "src/main.go", marker+handEdit, 0o755)
	return r, s, root
}

// handEdit is the person's edit of src/main.go after the turns.
const handEdit = "// hand edit\n"

// checkPersonFiles fails t for every one of personFiles not as the person
// left it (src/main.go with handEdit), and for anything the rewind put in
// their directories.
func checkPersonFiles(t *testing.T, root string) {
	t.Helper()
	for _, f := range personFiles {
		want := marker
		if f == "src/main.go" {
			want += handEdit
		}
		if b, err := os.ReadFile(filepath.Join(root, f)); err != nil || string(b) != want {
			t.Errorf("%s after the rewind: %q, %v (want the person's %q)", f, b, err, want)
		}
	}
	for _, d := range []string{".git/hooks", ".claude", "src"} {
		for _, stray := range []string{"x.txt", "e", "b"} {
			if _, err := os.Lstat(filepath.Join(root, d, stray)); err == nil {
				t.Errorf("the rewind made %s/%s through a link", d, stray)
			}
		}
	}
}

// Red team r18 F1: a turn makes a/NAME, the next replaces a by a symlink
// into the workspace (git's hooks, config, refs, a source file, the agent's
// settings); the rewind to before the first turn removed "a/NAME" before
// the link "a" and so deleted the person's file through it. Every form:
// the link one level up or two, chained, relative or absolute, planted by
// a turn (the link is an entry of the plan: removed as one) or by hand
// after (not in the plan: a conflict, and with --force a refusal).
func TestAttackRewindRemoveThroughLink(t *testing.T) {
	type form struct {
		name, t1, t2, hand string
		conflict           bool
	}
	var forms []form
	for _, f := range personFiles {
		dir, base := filepath.Dir(f), filepath.Base(f)
		up := strings.Repeat("../", strings.Count(dir, "/")+1)
		forms = append(forms,
			form{name: f + "/link", t1: "mkdir a; echo hi > a/" + base, t2: "rm -rf a; ln -s " + dir + " a"},
			form{name: f + "/abs", t1: "mkdir a; echo hi > a/" + base, t2: "rm -rf a; ln -s \"$PWD/" + dir + "\" a"},
			form{name: f + "/deep", t1: "mkdir -p a/b; echo hi > a/b/" + base, t2: "rm -rf a/b; ln -s ../" + dir + " a/b"},
			form{name: f + "/chain", t1: "mkdir a; echo hi > a/" + base, t2: "rm -rf a; ln -s c a; ln -s " + dir + " c"},
			form{name: f + "/dotdot", t1: "mkdir -p a/b; echo hi > a/b/" + base, t2: "rm -rf a; mkdir a; ln -s ../" + up + dir + " a/b; ln -s . a/self"},
			form{name: f + "/byhand", t1: "mkdir a; echo hi > a/" + base, t2: "rm -rf a", hand: "ln -s " + dir + " a", conflict: true},
		)
	}
	for _, fm := range forms {
		t.Run(fm.name, func(t *testing.T) {
			r, s, root := newWorkspace(t)
			shTurn(t, r, root, "t1", fm.t1)
			shTurn(t, r, root, "t2", fm.t2)
			if fm.hand != "" {
				sh := exec.Command("sh", "-c", fm.hand)
				sh.Dir = root
				if out, err := sh.CombinedOutput(); err != nil {
					t.Fatal(err, string(out))
				}
			}
			write(t, root, "src/main.go", marker+handEdit, 0o755)
			plan := planTurn1(t, r, s, "t1", "t2")
			_, _, err := r.Rewind(context.Background(), "s", plan, false)
			if fm.conflict {
				if err == nil || !strings.Contains(err.Error(), "is a symlink now") {
					t.Fatalf("a link planted by hand was not a conflict: %v", err)
				}
				_, _, err = r.Rewind(context.Background(), "s", plan, true)
				var link *LinkOnPathError
				if !errors.As(err, &link) || link.Dir != "a" {
					t.Fatalf("forced through the link: %v", err)
				}
			} else if err != nil {
				t.Fatalf("rewind: %v", err)
			}
			checkPersonFiles(t, root)
			if !fm.conflict {
				if _, err := os.Lstat(filepath.Join(root, "a")); !os.IsNotExist(err) {
					t.Errorf("a left after the rewind: %v", err)
				}
			}
		})
	}
}

// Red team r18 F1b: between the plan (a is the model's directory holding
// its a/pre-commit: "delete a/pre-commit" shown and approved) and the
// operation, a process swaps a for a symlink to .git/hooks, over and over.
// No rewind may remove the person's hook, whichever state it meets.
func TestAttackRewindSwapDuringRestore(t *testing.T) {
	r, s, root := newWorkspace(t)
	shTurn(t, r, root, "t1", "mkdir a; echo model > a/pre-commit")
	plan := planTurn1(t, r, s, "t1")
	if len(plan) != 1 || plan[0].Path != "a/pre-commit" || plan[0].Conflict != "" {
		t.Fatalf("plan %+v", plan)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the model's background process
		defer wg.Done()
		in := func(n string) string { return filepath.Join(root, n) }
		for !stop.Load() {
			if fi, err := os.Lstat(in("a")); err == nil && fi.IsDir() {
				_ = os.RemoveAll(in("a"))
			}
			_ = os.Remove(in("a"))
			_ = os.MkdirAll(in("a.real"), 0o755)
			_ = os.WriteFile(in("a.real/pre-commit"), []byte("model\n"), 0o644)
			_ = os.Rename(in("a.real"), in("a"))
			_ = os.Rename(in("a"), in("a.real"))
			_ = os.Symlink(".git/hooks", in("a"))
		}
	}()
	defer func() { stop.Store(true); wg.Wait() }()
	var refused int
	for i := 0; i < 3000; i++ {
		err := r.Apply(context.Background(), plan, true)
		var link *LinkOnPathError
		if errors.As(err, &link) {
			refused++
		} else if err != nil {
			t.Errorf("rewind %d: %v", i, err)
		}
		if b, err := os.ReadFile(filepath.Join(root, ".git/hooks/pre-commit")); err != nil || string(b) != marker {
			t.Fatalf("rewind %d removed the person's hook through the swapped link: %q, %v", i, b, err)
		}
	}
	stop.Store(true)
	wg.Wait()
	checkPersonFiles(t, root)
	t.Logf("%d of 3000 rewinds met the link and refused", refused)
}

// Directories are never made through a link: a file the turn deleted is
// restored under d/e, but d is a symlink to .git/hooks now (planted by
// hand: a conflict; forced: refused), so nothing is made in .git/hooks.
// A symlink the turn removed comes back as a link, and a file under a
// directory the turn replaced by a link comes back in a real directory.
func TestRewindMakesNoDirThroughLink(t *testing.T) {
	r, s, root := newWorkspace(t)
	write(t, root, "d/e/x.txt", "x\n", 0o644)
	write(t, root, "f/b", "b\n", 0o644)
	for _, l := range [][2]string{{"hello.txt", "l"}, {"../hello.txt", "f/l2"}} {
		if err := os.Symlink(l[0], filepath.Join(root, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	shTurn(t, r, root, "t1", "rm -rf d l f/l2; mv f f.old; ln -s .claude f")
	if err := os.Symlink(".git/hooks", filepath.Join(root, "d")); err != nil {
		t.Fatal(err)
	}
	plan := planTurn1(t, r, s, "t1")
	_, _, err := r.Rewind(context.Background(), "s", plan, false)
	if err == nil || !strings.Contains(err.Error(), "d is a symlink now") {
		t.Fatalf("a link planted on the way to d/e/x.txt was no conflict: %v", err)
	}
	_, _, err = r.Rewind(context.Background(), "s", plan, true)
	var link *LinkOnPathError
	if !errors.As(err, &link) || link.Dir != "d" {
		t.Fatalf("forced: %v", err)
	}
	checkPersonFiles(t, root)
	for _, l := range [][2]string{{"hello.txt", "l"}, {"../hello.txt", "f/l2"}} {
		if got, err := os.Readlink(filepath.Join(root, l[1])); err != nil || got != l[0] {
			t.Errorf("%s restored as %q, %v; want a link to %s", l[1], got, err, l[0])
		}
	}
	if fi, err := os.Lstat(filepath.Join(root, "f")); err != nil || !fi.IsDir() {
		t.Errorf("f not a directory again: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(root, "f/b")); err != nil || string(b) != "b\n" {
		t.Errorf("f/b = %q, %v", b, err)
	}
}
