package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

// worktreeEnv is newEnv with the repository and PINCER_HOME outside the
// temp directories sandboxed commands may write (as ~/src and
// ~/.local/share are), so that what the sandbox keeps read-only is tested,
// not merely what /tmp lets through.
func worktreeEnv(t *testing.T) *env {
	t.Helper()
	base := outsideTemp(t)
	e := newEnv(t)
	e.repo, e.home = filepath.Join(base, "repo"), filepath.Join(base, "home")
	for _, d := range []string{e.repo, e.home} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	e.write("hello.txt", "hello world\n")
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "."}, {"commit", "-qm", "init"}} {
		wtGit(t, e.repo, args...)
	}
	return e
}

// wtGit runs the test's own git in dir (hooks off) and returns its output.
func wtGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "core.hooksPath=/dev/null", "-c", "user.email=t@example.com", "-c", "user.name=t"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestRunInWorktree: `pincer run --worktree x` with the scripted server
// reading, editing, writing, and trying git add and commit under the sandbox
// (refused: the main repository's objects and refs are read-only to it,
// sandbox.GitShare; status and diff work): the branch pincer/x has every
// change, recorded by pincer's own commit at the run's end, the main checkout
// none;
// `pincer worktrees` lists it with its diff stat and the session that made
// it; merge brings the change into the main checkout; remove deletes the
// checkout and the branch.
func TestRunInWorktree(t *testing.T) {
	e := worktreeEnv(t)
	e.fake.Push(
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c1", Name: "Read", Args: `{"file_path":"hello.txt"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c2", Name: "Edit", Args: `{"file_path":"hello.txt","old_string":"world","new_string":"worktree"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c3", Name: "Bash", Args: `{"command":"git status --porcelain; git add hello.txt 2>&1; git -c user.name=m -c user.email=m@m commit -qam 'model commit' 2>&1; git diff --stat"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c4", Name: "Write", Args: `{"file_path":"new.txt","content":"new\n"}`}}},
		openaitest.Reply{Text: "Done."},
	)
	out, stderr, code := e.run(e.runArgs("--worktree", "x", "--permission-mode", "bypassPermissions", "--output-format", "stream-json", "change it")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	evs := parseStream(t, out)
	for _, ev := range evs {
		if ev.Type == "tool.completed" && ev.IsError {
			t.Errorf("%s failed: %s", ev.Name, ev.Output)
		}
		if ev.Type == "tool.completed" && ev.Name == "Bash" && (!strings.Contains(ev.Output, " M hello.txt") || !strings.Contains(ev.Output, "failed to insert into database") || !strings.Contains(ev.Output, "hello.txt | 2")) {
			t.Errorf("git status, add, commit and diff in the worktree: %q", ev.Output)
		}
	}
	session := evs[0].SessionID
	if got := e.read("hello.txt"); got != "hello world\n" {
		t.Errorf("the main checkout's hello.txt = %q", got)
	}
	if _, err := os.Lstat(filepath.Join(e.repo, "new.txt")); err == nil {
		t.Error("the main checkout got new.txt")
	}
	if got := wtGit(t, e.repo, "show", "pincer/x:hello.txt"); got != "hello worktree" {
		t.Errorf("pincer/x:hello.txt = %q", got)
	}
	if got := wtGit(t, e.repo, "show", "pincer/x:new.txt"); got != "new" {
		t.Errorf("pincer/x:new.txt = %q (the run's work committed at its end)", got)
	}
	if log := wtGit(t, e.repo, "log", "--format=%s", "main..pincer/x"); strings.Contains(log, "model commit") || !strings.Contains(log, "pincer: session "+session) {
		t.Errorf("pincer/x's commits: %q", log)
	}
	if wtGit(t, e.repo, "status", "--porcelain") != "" {
		t.Error("the main checkout is not clean")
	}

	out, stderr, code = e.run("worktrees", "--json")
	var list []struct {
		Name, Branch, Path, Session string
		Stat                        struct{ Insertions, Deletions int }
	}
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 {
		t.Fatalf("worktrees --json: %d %q %s", code, out, stderr)
	}
	if w := list[0]; w.Name != "x" || w.Branch != "pincer/x" || w.Session != session || w.Stat.Insertions != 2 || w.Stat.Deletions != 1 {
		t.Errorf("listed %+v (session %s)", w, session)
	}
	out, _, _ = e.run("sessions", "--json")
	if !strings.Contains(out, `"branch":"pincer/x"`) {
		t.Errorf("the session record does not name the branch: %s", out)
	}
	out, _, code = e.run("worktrees")
	if code != 0 || !strings.Contains(out, "2 files changed, 2 insertions(+), 1 deletion(-)") {
		t.Errorf("worktrees: %d %s", code, out)
	}
	// --continue in the worktree continues that session.
	e.fake.Push(openaitest.Reply{Text: "Still here."})
	if out, stderr, code = e.run(e.runArgs("--worktree", "x", "--continue", "again")...); code != 0 || strings.TrimSpace(out) != "Still here." {
		t.Fatalf("--worktree x --continue: %d %q %s", code, out, stderr)
	}
	if out, stderr, code = e.run("worktrees", "merge", "x"); code != 0 || !strings.Contains(out, "merged worktree x into main") {
		t.Fatalf("merge: %d %q %s", code, out, stderr)
	}
	if got := e.read("hello.txt"); got != "hello worktree\n" {
		t.Errorf("after merge hello.txt = %q", got)
	}
	if out, stderr, code = e.run("worktrees", "remove", "x"); code != 0 {
		t.Fatalf("remove: %d %q %s", code, out, stderr)
	}
	if _, err := os.Lstat(list[0].Path); err == nil {
		t.Error("the checkout is still there")
	}
	if b := wtGit(t, e.repo, "branch", "--list", "pincer/x"); b != "" {
		t.Errorf("branch left: %q", b)
	}
	if _, stderr, code = e.run("worktrees", "remove", "../x"); code != 2 {
		t.Errorf("remove ../x: exit %d %s", code, stderr)
	}
}

// TestAttackFromWorktreeSession (attack: a worktree session reaching out):
// in bypassPermissions, the model's Bash and file tools in worktree x try to
// write the main checkout's files, the main repository's hooks and config,
// another worktree's files, pincer's data directory, and to read another
// worktree, through absolute paths, .. and symlinks. Nothing lands (marker
// payloads), and the session's own work does.
func TestAttackFromWorktreeSession(t *testing.T) {
	e := worktreeEnv(t)
	// Another worktree, y, with a file of its own.
	e.fake.Push(openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "y1", Name: "Write", Args: `{"file_path":"secret-y.txt","content":"Y-SECRET\n"}`}}}, openaitest.Reply{Text: "ok"})
	if _, stderr, code := e.run(e.runArgs("--worktree", "y", "--permission-mode", "bypassPermissions", "make y")...); code != 0 {
		t.Fatalf("worktree y: %s", stderr)
	}
	data := filepath.Join(e.home, "data")
	var proj string
	if m, _ := filepath.Glob(filepath.Join(data, "worktrees", "*", "y")); len(m) == 1 {
		proj = filepath.Dir(m[0])
	} else {
		t.Fatalf("worktree y not found: %v", m)
	}
	y := filepath.Join(proj, "y")
	hooks := filepath.Join(e.repo, ".git", "hooks")
	r := strings.NewReplacer("{R}", e.repo, "{Y}", y, "{D}", data, "{H}", hooks, "{P}", proj)
	bash := []string{
		"echo PWNED > {R}/hello.txt",
		"echo PWNED > {R}/PROOF",
		"printf '#!/bin/sh\\ntouch {R}/PROOF\\n' > {H}/post-commit; chmod +x {H}/post-commit",
		"echo '[core]' >> {R}/.git/config",
		"git config core.hooksPath /tmp",
		"echo PWNED > {Y}/hello.txt",
		"echo PWNED > ../y/hello.txt",
		"cd ../y && echo PWNED > PROOF",
		"ln -s {R} rl && echo PWNED > rl/PROOF",
		"ln -s {Y} yl && echo PWNED > yl/PROOF",
		"echo x > {D}/PROOF",
		"echo '{}' > {D}/mcp-approvals.json",
		"echo x > {P}/y.json",
		"git --git-dir={R}/.git --work-tree={R} checkout -q -- . ; echo PWNED > {R}/hello.txt",
		"git update-ref refs/heads/main HEAD; git update-ref refs/heads/pincer/y HEAD",
		"cat {Y}/secret-y.txt",
		// A protected file staged through git's plumbing from an object the
		// repository has (the sandbox keeps the working file and the objects
		// read-only, not the worktree's index), for pincer's own commit to
		// record.
		"n=$(printf '.cl%sde/settings.json' au); b=$(git rev-parse HEAD:hello.txt) && git update-index --add --cacheinfo 100644,$b,$n && git update-index --skip-worktree $n && echo STAGED",
	}
	var calls []openaitest.Reply
	for i, c := range bash {
		args, _ := json.Marshal(map[string]string{"command": r.Replace(c)})
		calls = append(calls, openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "b" + string(rune('a'+i)), Name: "Bash", Args: string(args)}}})
	}
	files := []openaitest.Call{
		{Name: "Write", Args: `{"file_path":"{R}/PROOF","content":"x"}`},
		{Name: "Write", Args: `{"file_path":"{H}/pre-commit","content":"#!/bin/sh\ntouch {R}/PROOF\n"}`},
		{Name: "Write", Args: `{"file_path":"{Y}/PROOF","content":"x"}`},
		{Name: "Write", Args: `{"file_path":"../y/PROOF","content":"x"}`},
		{Name: "Write", Args: `{"file_path":"{D}/PROOF","content":"x"}`},
		{Name: "Read", Args: `{"file_path":"{Y}/secret-y.txt"}`},
		{Name: "Read", Args: `{"file_path":"../y/secret-y.txt"}`},
		{Name: "Grep", Args: `{"pattern":"Y-SECRET","path":"{P}"}`},
		{Name: "Write", Args: `{"file_path":"own.txt","content":"own work\n"}`},
	}
	for i, c := range files {
		c.ID = "f" + string(rune('a'+i))
		c.Args = r.Replace(c.Args)
		calls = append(calls, openaitest.Reply{ToolCalls: []openaitest.Call{c}})
	}
	calls = append(calls, openaitest.Reply{Text: "done"})
	e.fake.Push(calls...)
	mainHead, yHead := wtGit(t, e.repo, "rev-parse", "main"), wtGit(t, e.repo, "rev-parse", "pincer/y")
	out, stderr, code := e.run(e.runArgs("--worktree", "x", "--permission-mode", "bypassPermissions", "--max-turns", "40", "--output-format", "stream-json", "attack")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, ev := range parseStream(t, out) {
		if ev.Type == "tool.completed" && testing.Verbose() {
			t.Logf("%s: %s", ev.Name, ev.Output)
		}
		if ev.Type == "tool.completed" && strings.Contains(ev.Output, "Y-SECRET") {
			t.Errorf("%s read worktree y: %q", ev.Name, ev.Output)
		}
	}
	if got := e.read("hello.txt"); got != "hello world\n" {
		t.Errorf("the main checkout's hello.txt = %q", got)
	}
	for _, p := range []string{filepath.Join(e.repo, "PROOF"), filepath.Join(hooks, "post-commit"), filepath.Join(hooks, "pre-commit"),
		filepath.Join(y, "PROOF"), filepath.Join(data, "PROOF"), filepath.Join(data, "mcp-approvals.json")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was created", p)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(y, "hello.txt")); string(b) != "hello world\n" {
		t.Errorf("worktree y's hello.txt = %q", b)
	}
	if cfg, _ := os.ReadFile(filepath.Join(e.repo, ".git", "config")); strings.Contains(string(cfg), "hooksPath") || strings.Count(string(cfg), "[core]") != 1 {
		t.Errorf(".git/config changed:\n%s", cfg)
	}
	if wtGit(t, e.repo, "rev-parse", "main") != mainHead || wtGit(t, e.repo, "rev-parse", "pincer/y") != yHead {
		t.Error("a branch outside the worktree moved")
	}
	if got := wtGit(t, e.repo, "show", "pincer/x:own.txt"); got != "own work" {
		t.Errorf("the session's own work on pincer/x: %q", got)
	}
	// The branch carries .claude/settings.json (committed through git):
	// merging it is refused, naming the file, until --force.
	if !strings.Contains(wtGit(t, e.repo, "ls-tree", "-r", "--name-only", "pincer/x"), ".claude/settings.json") {
		t.Fatal("the plumbing commit did not reach the branch: the merge check below would test nothing")
	}
	out, stderr, code = e.run("worktrees", "merge", "x")
	if code == 0 || !strings.Contains(stderr, "protected files") || !strings.Contains(stderr, ".claude/settings.json") {
		t.Errorf("merge of a protected change: %d %q %q", code, out, stderr)
	}
	if _, err := os.Lstat(filepath.Join(e.repo, ".claude")); err == nil {
		t.Error("the refused merge brought .claude into the main checkout")
	}
	if out, _, _ = e.run("worktrees"); !strings.Contains(out, "x") {
		t.Errorf("worktrees: %s", out)
	}
}
