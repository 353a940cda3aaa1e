package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/app"
	"pincer/core/provider/providertest"
	"pincer/core/worktree"
)

// TestWorktreeRows: the selected worktree shows its path, base and files,
// and the question replaces nothing but is added under it; the others are
// one line; a repository name with escapes reaches the screen clean.
func TestWorktreeRows(t *testing.T) {
	list := []app.WorktreeInfo{
		{Worktree: worktree.Worktree{Name: "feat", Branch: "pincer/feat", Path: "/d/p/feat", Base: "0123456789abcdef", Repo: "/r\x1b]0;x\x07"},
			Stat:    worktree.Stat{Files: []worktree.FileStat{{Path: "a.go", Added: 3, Deleted: 1}, {Path: "n.txt", Added: 1, Untracked: true}}, Insertions: 4, Deletions: 1},
			Session: "20261201-120000-abcd1234", Sessions: 1, Title: "fix it"},
		{Worktree: worktree.Worktree{Name: "old", Branch: "pincer/old", Missing: true}, StatErr: "its checkout is gone"},
	}
	join := func(rows []mcpRow) string {
		var b strings.Builder
		for _, r := range rows {
			b.WriteString(r.text + "\n")
		}
		return b.String()
	}
	got := join(worktreeRows(list, 0, "", "", false, 120))
	for _, want := range []string{"▸ feat  pincer/feat  2 files changed, 4 insertions(+), 1 deletion(-)  session abcd1234",
		"path: /d/p/feat", "from 0123456789ab of /r", "made by abcd1234: fix it", "a.go | +3 -1", "n.txt | +1 -0 (new, not committed)",
		"  old   pincer/old  checkout gone  no session"} {
		if !strings.Contains(got, want) {
			t.Errorf("rows lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "\x1b") || strings.Contains(got, "Merge ") {
		t.Errorf("rows:\n%q", got)
	}
	if q := join(worktreeRows(list, 0, "merge", "", false, 120)); !strings.Contains(q, "Merge pincer/feat into the main checkout's branch?") || !strings.Contains(q, "y merges") {
		t.Errorf("merge question:\n%s", q)
	}
	if q := join(worktreeRows(list, 0, "discard", "", false, 120)); !strings.Contains(q, "Discard worktree feat?") || !strings.Contains(q, "with 2 files changed") {
		t.Errorf("discard question:\n%s", q)
	}
	// A merged one, an empty one, and one whose branch (not its files) would
	// bring a protected path (worktree.MergeProtected).
	more := []app.WorktreeInfo{
		{Worktree: worktree.Worktree{Name: "done", Branch: "pincer/done"}, Merged: true,
			Stat: worktree.Stat{Files: []worktree.FileStat{{Path: "a.go", Added: 1}}, Insertions: 1}},
		{Worktree: worktree.Worktree{Name: "idle", Branch: "pincer/idle"}},
		{Worktree: worktree.Worktree{Name: "sly", Branch: "pincer/sly"}, MergeProtected: []string{".envrc"}},
	}
	if r := join(worktreeRows(more, 0, "", "", false, 120)); !strings.Contains(r, "done  pincer/done  merged: 1 file changed") ||
		!strings.Contains(r, "merged: the main checkout has all of it") || !strings.Contains(r, "idle  pincer/idle  empty (nothing changed)") {
		t.Errorf("merged and empty rows:\n%s", r)
	}
	if r := join(worktreeRows(more, 1, "", "", false, 120)); !strings.Contains(r, "empty: nothing was changed or committed here") {
		t.Errorf("empty selected:\n%s", r)
	}
	if r := join(worktreeRows(more, 2, "", "", false, 120)); !strings.Contains(r, "changes protected files: .envrc") {
		t.Errorf("protected through the branch:\n%s", r)
	}
	if n := join(worktreeRows(nil, 0, "", "", false, 120)); !strings.Contains(n, "No worktrees") {
		t.Errorf("none: %s", n)
	}
	if e := join(worktreeRows(list, 0, "", "boom", false, 120)); !strings.Contains(e, "worktrees: boom") {
		t.Errorf("error: %s", e)
	}
}

// TestWorktreesViewMergeAndDiscard: through the real Backend and a real
// repository, /worktrees lists a worktree with its diff stat; d asks, a y
// before the question was on screen 400 ms does nothing, n takes it back; m
// then y after the grace merges (the main checkout gets the file); d then y
// discards (the checkout and the branch are gone).
func TestWorktreesViewMergeAndDiscard(t *testing.T) {
	t.Setenv("PINCER_HOME", t.TempDir())
	repo, _ := filepath.EvalSymlinks(t.TempDir())
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"commit", "-q", "--allow-empty", "-m", "first"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "core.hooksPath=/dev/null"}, args...)...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	m, err := app.Worktrees()
	if err != nil {
		t.Fatal(err)
	}
	wt, err := m.Create(t.Context(), repo, "feat")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wt.Path, "new.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	clock := &fakeClock{now: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	b := startBenchWith(t, 120, 40, Options{}, func(w *Workbench) { w.now = clock.Now })
	ag, _ := newTestAgent(t, &providertest.Scripted{})
	be := backendOf(ag)
	be.Repo = repo
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b.w.Attach(be, s.ID)
	b.slash("/worktrees")
	b.waitText("Worktrees (1)", "feat", "pincer/feat", "1 file changed, 2 insertions(+)", "new.txt | +2 -0")
	grace := func() {
		clock.mu.Lock()
		clock.now = clock.now.Add(approvalGrace)
		clock.mu.Unlock()
	}
	b.key(tcell.KeyRune, 'd', tcell.ModNone)
	b.waitText("Discard worktree feat?", "y discards")
	b.key(tcell.KeyRune, 'y', tcell.ModNone) // at once: not read yet
	b.waitText("read the question first")
	b.key(tcell.KeyRune, 'n', tcell.ModNone)
	b.waitText("worktrees: feat left as it is")
	if _, err := os.Stat(wt.Path); err != nil {
		t.Fatal("an early y discarded the worktree")
	}
	b.key(tcell.KeyRune, 'm', tcell.ModNone)
	b.waitText("Merge pincer/feat into the main checkout's branch?")
	grace()
	b.key(tcell.KeyRune, 'y', tcell.ModNone)
	b.waitText("worktrees: merged feat into main")
	if got, _ := os.ReadFile(filepath.Join(repo, "new.txt")); string(got) != "one\ntwo\n" {
		t.Errorf("the main checkout's new.txt = %q", got)
	}
	b.waitText("merged: 1 file changed", "merged: the main checkout has all of it")
	b.key(tcell.KeyRune, 'd', tcell.ModNone)
	b.waitText("Discard worktree feat?")
	grace()
	b.key(tcell.KeyRune, 'y', tcell.ModNone)
	b.waitText("worktrees: discarded feat and its branch")
	b.waitText("No worktrees for this repository")
	if _, err := os.Stat(wt.Path); !os.IsNotExist(err) {
		t.Errorf("the checkout is still there: %v", err)
	}
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	b.waitFor("the view to close", func(s string) bool { return !strings.Contains(s, "Worktrees (") })
	b.stop()
}
