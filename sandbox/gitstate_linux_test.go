package sandbox

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitShEnv is the git identity and no user or system configuration for git
// inside the sandbox, as a shell prefix.
const gitShEnv = "export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_EDITOR=true; "

// tryGit runs the person's git in dir outside the sandbox, as personGit, and
// returns its output whether it failed or not (a quarantined todo makes
// `git rebase --continue` fail, which is the point).
func tryGit(dir string, args ...string) string {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), append(gitEnv, "GIT_EDITOR=true")...)
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// threeCommits makes root a repository with commits c1, c2, c3 (files f1..f3).
func threeCommits(t *testing.T, root string) {
	t.Helper()
	personGit(t, root, "init", "-q", "-b", "main", root)
	for _, n := range []string{"1", "2", "3"} {
		if err := os.WriteFile(filepath.Join(root, "f"+n), []byte(n+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		personGit(t, root, "add", "f"+n)
		personGit(t, root, "commit", "-q", "-m", "c"+n)
	}
}

// bg runs script as a background shell under e (Executor.Start) and waits
// for it, returning its notices as Run would.
func bg(t *testing.T, e *Executor, script string) Result {
	t.Helper()
	p, err := e.Start(context.Background(), Command{Path: "bash", Args: []string{"-c", script}, Dir: e.Workspace.Root()})
	if err != nil {
		t.Fatal(err)
	}
	res := p.Wait()
	res.Notice = p.Notice()
	return res
}

// linksIn returns the symlinks beneath dir (relative).
func linksIn(dir string) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type()&fs.ModeSymlink != 0 {
			r, _ := filepath.Rel(dir, p)
			out = append(out, r)
		}
		return nil
	})
	return out
}

// TestAttackGitStateSymlinks (red team r17 F1): a symlink a command leaves
// in a git dir — COMMIT_EDITMSG, logs/HEAD, MERGE_MSG, a logs or refs
// directory, in the root's .git, a nested repository's or a submodule's —
// made with ln -s, cp -s, python, mv or rename of a prepared link, by a
// second command, or by a background shell, is quarantined; with a planted
// SQUASH_MSG holding the marker, the person's `git commit` and `git status`
// afterwards write nothing where the link pointed. Seen failing before the
// guard (the victim held the marker).
func TestAttackGitStateSymlinks(t *testing.T) {
	pol := DefaultPolicy()
	pol.QuarantineDir = t.TempDir()
	e, root := newSandbox(t, pol)
	threeCommits(t, root)
	personGit(t, root, "init", "-q", filepath.Join(root, "sub"))
	personGit(t, filepath.Join(root, "sub"), "commit", "-q", "--allow-empty", "-m", "s")
	out := t.TempDir() // the person's files outside the workspace
	victim := filepath.Join(out, "bashrc")
	vdir := filepath.Join(out, "dir")
	if err := os.WriteFile(victim, []byte("orig\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(vdir, 0o755); err != nil {
		t.Fatal(err)
	}
	plant := "printf 'PWNED-MARKER\\n' > @G@/SQUASH_MSG; "
	forms := []struct{ gitDir, first, script string }{
		{".git", "", `ln -sf @V@ @G@/COMMIT_EDITMSG`},
		{".git", "", `cp -sf @V@ @G@/COMMIT_EDITMSG`},
		{".git", "", `python3 -c 'import os; os.symlink("@V@", "@G@/MERGE_MSG")'`},
		{".git", "", `rm -f @G@/logs/HEAD && ln -s @V@ @G@/logs/HEAD`},
		{".git", "", `ln -s @V@ l && mv -f l @G@/COMMIT_EDITMSG`},
		{".git", "", `ln -s @V@ l && python3 -c 'import os; os.rename("l", "@G@/COMMIT_EDITMSG")'`},
		{".git", "", `mv @G@/logs @G@/logs.old && ln -s @D@ @G@/logs`},
		{".git", "", `mkdir -p @G@/refs/heads && ln -s @D@ @G@/refs/heads/x`},
		{".git", "", `mkdir -p @G@/a/b/c && ln -s @V@ @G@/a/b/c/COMMIT_EDITMSG && mv @G@/a/b/c/COMMIT_EDITMSG @G@/`},
		{".git", "", `ln -f @V@ @G@/COMMIT_EDITMSG`},
		{".git", "ln -s @V@ prepared-link", `mv prepared-link @G@/COMMIT_EDITMSG`},
		{"sub/.git", "", `ln -sf @V@ @G@/COMMIT_EDITMSG`},
		{"sub/.git", "", `rm -f @G@/logs/HEAD && ln -s @V@ @G@/logs/HEAD`},
	}
	for i, f := range forms {
		g := filepath.Join(root, f.gitDir)
		sub := strings.NewReplacer("@V@", victim, "@D@", vdir, "@G@", g)
		if f.first != "" {
			sh(t, e, sub.Replace(f.first))
		}
		script := sub.Replace(plant + f.script)
		var res Result
		if i%3 == 2 {
			res = bg(t, e, script)
		} else {
			res = sh(t, e, script)
		}
		if l := linksIn(g); len(l) > 0 {
			t.Errorf("%q: symlinks left in %s: %v (notice %q, output %q)", f.script, f.gitDir, l, res.Notice, res.Output)
		}
		wt := filepath.Dir(g)
		tryGit(wt, "commit", "-q", "--allow-empty")
		tryGit(wt, "status", "--short")
		if b, _ := os.ReadFile(victim); string(b) != "orig\n" {
			t.Errorf("%q: the person's commit wrote the victim: %q", f.script, b)
			_ = os.WriteFile(victim, []byte("orig\n"), 0o644)
		}
		if ents, _ := os.ReadDir(vdir); len(ents) > 0 {
			t.Errorf("%q: the person's git wrote into the victim dir: %v", f.script, ents)
			_ = os.RemoveAll(vdir)
			_ = os.Mkdir(vdir, 0o755)
		}
		// Put back a moved logs dir, as the person would.
		if _, err := os.Lstat(filepath.Join(g, "logs.old")); err == nil {
			_ = os.RemoveAll(filepath.Join(g, "logs"))
			_ = os.Rename(filepath.Join(g, "logs.old"), filepath.Join(g, "logs"))
		}
	}
}

// TestGitStateLegit: real git workflows in the sandbox — init, commit,
// branch, tag, stash, an interactive rebase with an exec line run to its
// end, a stopped rebase continued, cherry-pick, notes, worktree add,
// submodule add, clone, gc, bisect — leave nothing quarantined, and a
// symlink the person made in .git before stays.
func TestGitStateLegit(t *testing.T) {
	pol := DefaultPolicy()
	pol.QuarantineDir = t.TempDir()
	e, root := newSandbox(t, pol)
	threeCommits(t, root)
	if err := os.Symlink("../f1", filepath.Join(root, ".git", "person-link")); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		`git checkout -q -b topic && echo x >> f1 && git commit -qam x && git tag v1 && git checkout -q main`,
		`echo y >> f2 && git stash -q && git stash pop -q && git checkout -q -- f2`,
		`GIT_SEQUENCE_EDITOR=true git rebase -q -i --exec 'echo ran >> exec.log' HEAD~2 && git status --short`,
		`GIT_SEQUENCE_EDITOR="sed -i 1s/^pick/edit/" git rebase -q -i HEAD~2 && git rebase --continue`,
		`git cherry-pick topic && git notes add -m n HEAD`,
		`git worktree add -q wt topic~0 && git -C wt status --short && git worktree remove wt`,
		`git init -q lib && git -C lib commit -q --allow-empty -m l && git -c protocol.file.allow=always submodule add -q ./lib mod && git commit -qm sub`,
		`git clone -q . cl && git -C cl log --oneline | head -1`,
		`git init -q nested && cd nested && echo n > n && git add n && git commit -qm n`,
		`git gc -q && git fsck --no-progress`,
		`git bisect start HEAD HEAD~3 >/dev/null && git bisect good >/dev/null; git bisect reset >/dev/null`,
	} {
		res := sh(t, e, gitShEnv+s)
		if res.ExitCode != 0 || res.Notice != "" {
			t.Errorf("%q: exit %d, notice %q, output %q", s, res.ExitCode, res.Notice, res.Output)
		}
	}
	if _, err := os.Lstat(filepath.Join(root, ".git", "person-link")); err != nil {
		t.Errorf("the person's own link was moved: %v", err)
	}
	personGit(t, root, "status", "--short")
}

// stoppedRebase has the person (outside the sandbox) start an interactive
// rebase of the last two commits of root that stops at the first (edit),
// with the exec lines of execs after each commit.
func stoppedRebase(t *testing.T, root string, execs ...string) {
	t.Helper()
	args := []string{"-c", "sequence.editor=sed -i 1s/^pick/edit/", "rebase", "-q", "-i"}
	for _, x := range execs {
		args = append(args, "--exec", x)
	}
	personGit(t, root, append(args, "HEAD~2")...)
}

// TestAttackRebaseTodoExec (red team r17 F3): an exec line a command writes
// into a stopped rebase's todo list (appended, sed, python, mv or cp over,
// a whole planted rebase-merge directory, case and blank variants, a second
// command, a background shell) or into a stopped cherry-pick's
// sequencer/todo is quarantined: the person's `git rebase --continue` /
// `git cherry-pick --continue` afterwards runs no marker. Seen failing
// without the guard (PROOF made by the person's git).
func TestAttackRebaseTodoExec(t *testing.T) {
	pol := DefaultPolicy()
	pol.QuarantineDir = t.TempDir()
	e, root := newSandbox(t, pol)
	threeCommits(t, root)
	proof := filepath.Join(root, "PROOF")
	x := "echo PWNED-MARKER > " + proof
	todo := ".git/rebase-merge/git-rebase-todo"
	forms := []struct {
		name, script string
		model        bool // the model starts the rebase itself, in the sandbox
	}{
		{"append", `echo "exec ` + x + `" >> ` + todo, false},
		{"x", `echo "x ` + x + `" >> ` + todo, false},
		{"blanks", `printf '  \tx  ` + x + `\n' >> ` + todo, false},
		{"sed", `sed -i '1i exec ` + x + `' ` + todo, false},
		{"python", `python3 -c 'p="` + todo + `"; s=open(p).read(); open(p,"w").write("exec ` + x + `\n"+s)'`, false},
		{"mv", `cp ` + todo + ` t && echo "x ` + x + `" >> t && mv -f t ` + todo, false},
		{"model-rebase-exec", `GIT_SEQUENCE_EDITOR="sed -i 1s/^pick/edit/" git rebase -q -i --exec '` + x + `' HEAD~2`, true},
		{"planted-dir", `git rebase --abort; GIT_SEQUENCE_EDITOR="sed -i 1s/^pick/edit/" git rebase -q -i HEAD~2 && cp -r .git/rebase-merge rm.saved && git rebase --abort && echo "x ` + x + `" >> rm.saved/git-rebase-todo && git checkout -q --detach HEAD~2 && cp -r rm.saved .git/rebase-merge`, true},
	}
	for i, f := range forms {
		if !f.model {
			stoppedRebase(t, root)
		}
		var res Result
		if i%3 == 1 {
			res = bg(t, e, gitShEnv+f.script)
		} else {
			res = sh(t, e, gitShEnv+f.script)
		}
		tryGit(root, "rebase", "--continue")
		if _, err := os.Lstat(proof); err == nil {
			t.Errorf("%s: the person's rebase --continue ran the model's exec line (notice %q, output %q)", f.name, res.Notice, res.Output)
			_ = os.Remove(proof)
		}
		tryGit(root, "rebase", "--abort")
		tryGit(root, "checkout", "-q", "-f", "main")
		_ = os.RemoveAll(filepath.Join(root, "rm.saved"))
	}
	// A second command finishes the job of a first, legit one.
	sh(t, e, gitShEnv+`GIT_SEQUENCE_EDITOR="sed -i 1s/^pick/edit/" git rebase -q -i HEAD~2`)
	sh(t, e, `echo "x `+x+`" >> `+todo)
	tryGit(root, "rebase", "--continue")
	if _, err := os.Lstat(proof); err == nil {
		t.Error("second command: the person's rebase ran the model's exec line")
		_ = os.Remove(proof)
	}
	tryGit(root, "rebase", "--abort")
}

// TestAttackSequencerTodoExec (red team r17 F3): an exec line appended to a
// stopped cherry-pick's sequencer/todo is quarantined (the notice; seen
// failing without the guard) and the person's `git cherry-pick --continue`
// runs no marker — git 2.39 itself refuses a todo mixing exec with pick
// ("cannot cherry-pick during a revert"); the guard does not count on it.
func TestAttackSequencerTodoExec(t *testing.T) {
	pol := DefaultPolicy()
	pol.QuarantineDir = t.TempDir()
	e, root := newSandbox(t, pol)
	threeCommits(t, root)
	proof := filepath.Join(root, "PROOF")
	x := "echo PWNED-MARKER > " + proof
	personGit(t, root, "checkout", "-q", "-b", "side", "HEAD~2")
	_ = os.WriteFile(filepath.Join(root, "f2"), []byte("conflict\n"), 0o644)
	personGit(t, root, "add", "f2")
	personGit(t, root, "commit", "-q", "-m", "side")
	tryGit(root, "cherry-pick", "main~1", "main")
	if _, err := os.Lstat(filepath.Join(root, ".git", "sequencer", "todo")); err != nil {
		t.Fatalf("no stopped cherry-pick: %v", err)
	}
	if res := sh(t, e, `echo "exec `+x+`" >> .git/sequencer/todo`); !strings.Contains(res.Notice, "todo") {
		t.Errorf("the exec line in sequencer/todo was not quarantined: %q", res.Notice)
	}
	_ = os.WriteFile(filepath.Join(root, "f2"), []byte("resolved\n"), 0o644)
	personGit(t, root, "add", "f2")
	tryGit(root, "cherry-pick", "--continue")
	if _, err := os.Lstat(proof); err == nil {
		t.Error("sequencer/todo: the person's cherry-pick --continue ran the model's exec line")
	}
}

// TestRebaseTodoPersonExecKept: a rebase the person started with exec lines
// of their own keeps them through a command that does not touch the todo
// and through the model's own `git rebase --continue` in the sandbox, which
// runs some of them there (sandboxed); nothing is quarantined, and the
// person's --continue runs the rest.
func TestRebaseTodoPersonExecKept(t *testing.T) {
	pol := DefaultPolicy()
	pol.QuarantineDir = t.TempDir()
	e, root := newSandbox(t, pol)
	threeCommits(t, root)
	stoppedRebase(t, root, "echo ran >> person.log")
	for _, s := range []string{`git status --short && git log --oneline | head -1`, `git rebase --continue 2>&1 | tail -1; test -d .git/rebase-merge || echo done`} {
		if res := sh(t, e, gitShEnv+s); res.Notice != "" {
			t.Errorf("%q: notice %q", s, res.Notice)
		}
	}
	tryGit(root, "rebase", "--continue")
	if b, _ := os.ReadFile(filepath.Join(root, "person.log")); strings.Count(string(b), "ran") != 2 {
		t.Errorf("the person's exec lines ran %d times, want 2", strings.Count(string(b), "ran"))
	}
}

// TestAttackNestedGitDirs (red team r17 F2): a git dir a command plants in
// a subdirectory — `git init src` then a helper key (fsmonitor, hooksPath,
// an include, a pager, diff.external), a copied prepared .git, a .git file
// or symlink naming a git dir outside the workspace, --separate-git-dir
// outside — has its config (or the .git link) quarantined; a second command
// cannot add the key to a repository the first made; the person's `git
// status`, `add`, `commit` and `diff` in src afterwards run no marker. Seen
// failing without the guard.
func TestAttackNestedGitDirs(t *testing.T) {
	pol := DefaultPolicy()
	pol.QuarantineDir = t.TempDir()
	e, root := newSandbox(t, pol)
	threeCommits(t, root)
	proof := filepath.Join(root, "PROOF")
	run := filepath.Join(root, "run.sh")
	if err := os.WriteFile(run, []byte("#!/bin/sh\necho PWNED-MARKER > "+proof+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	hooks := filepath.Join(root, "hk")
	_ = os.Mkdir(hooks, 0o755)
	for _, h := range []string{"pre-commit", "post-commit"} {
		_ = os.WriteFile(filepath.Join(hooks, h), []byte("#!/bin/sh\n"+run+"\n"), 0o755)
	}
	_ = os.WriteFile(filepath.Join(root, "inc.cfg"), []byte("[core]\n\tfsmonitor = "+run+"\n"), 0o644)
	out := "/tmp/" + randName("pincer-evil-") // writable from the sandbox, outside the workspace
	t.Cleanup(func() { os.RemoveAll(out) })
	forms := []struct{ name, first, script string }{
		{"fsmonitor", "", `git init -q src && git -C src config core.fsmonitor ` + run},
		{"hooksPath", "", `git init -q src && git -C src config core.hooksPath ` + hooks},
		{"include", "", `git init -q src && printf '[include]\n\tpath = ` + root + `/inc.cfg\n' >> src/.git/config`},
		{"diff.external", "", `git init -q src && git -C src config diff.external ` + run},
		{"alias", "", `git init -q src && git -C src config alias.st '!` + run + `' && git -C src config core.pager ` + run},
		{"copied", "", `git init -q /tmp/p.$$ && git -C /tmp/p.$$ config core.fsmonitor ` + run + ` && mkdir -p src && cp -r /tmp/p.$$/.git src/.git`},
		{"python", "", `git init -q src && python3 -c 'open("src/.git/config","a").write("[core]\n\tfsmonitor = ` + run + `\n")'`},
		{"gitfile-outside", "", `git init -q --bare ` + out + ` && git --git-dir=` + out + ` config core.bare false && git --git-dir=` + out + ` config core.fsmonitor ` + run + ` && mkdir -p src && echo "gitdir: ` + out + `" > src/.git`},
		{"symlink-outside", "", `git init -q --bare ` + out + ` && git --git-dir=` + out + ` config core.bare false && git --git-dir=` + out + ` config core.fsmonitor ` + run + ` && mkdir -p src && ln -s ` + out + ` src/.git`},
		{"separate-outside", "", `git init -q --separate-git-dir=` + out + ` src && git -C src config core.fsmonitor ` + run},
		{"second-command", `git init -q src`, `git -C src config core.fsmonitor ` + run},
		{"deep", "", `git init -q a/b/c/src && git -C a/b/c/src config core.fsmonitor ` + run + ` && mv a/b/c/src src`},
	}
	for i, f := range forms {
		if f.first != "" {
			sh(t, e, gitShEnv+f.first)
		}
		var res Result
		if i%4 == 3 {
			res = bg(t, e, gitShEnv+f.script)
		} else {
			res = sh(t, e, gitShEnv+f.script)
		}
		src := filepath.Join(root, "src")
		_ = os.WriteFile(filepath.Join(src, "x"), []byte("x\n"), 0o644)
		for _, args := range [][]string{{"status"}, {"add", "x"}, {"commit", "-q", "-m", "p"}, {"st"}, {"log", "-1"}} {
			tryGit(src, args...)
		}
		_ = os.WriteFile(filepath.Join(src, "x"), []byte("y\n"), 0o644)
		tryGit(src, "diff")
		if _, err := os.Lstat(proof); err == nil {
			t.Errorf("%s: the person's git in src ran the model's helper (notice %q, output %q)", f.name, res.Notice, res.Output)
			_ = os.Remove(proof)
		}
		_ = os.RemoveAll(src)
		_ = os.RemoveAll(filepath.Join(root, "a"))
		_ = os.RemoveAll(out)
	}
}

// TestNestedGitDirsLegit: nested repositories a command makes the ordinary
// ways — init with an identity, a local clone, a submodule —
// keep their config (nothing quarantined). (A linked worktree a command adds
// keeps being quarantined as before: its admin dir's commondir and gitdir
// are git redirects.)
func TestNestedGitDirsLegit(t *testing.T) {
	pol := DefaultPolicy()
	pol.QuarantineDir = t.TempDir()
	e, root := newSandbox(t, pol)
	threeCommits(t, root)
	for _, s := range []string{
		`git init -q n1 && git -C n1 config user.name me && git -C n1 commit -q --allow-empty -m x`,
		`git clone -q . n2 && git -C n2 status --short`,
		`git init -q n4 && git -C n4 commit -q --allow-empty -m x && git -c protocol.file.allow=always submodule add -q ./n4 mods/n4`,
	} {
		if res := sh(t, e, gitShEnv+s); res.ExitCode != 0 || res.Notice != "" {
			t.Errorf("%q: exit %d, notice %q, output %q", s, res.ExitCode, res.Notice, res.Output)
		}
	}
	for _, cfg := range []string{"n1/.git/config", "n2/.git/config"} {
		if _, err := os.Stat(filepath.Join(root, cfg)); err != nil {
			t.Errorf("%s: %v", cfg, err)
		}
	}
}
