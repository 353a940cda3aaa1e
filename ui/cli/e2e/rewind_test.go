package e2e

// Checkpoints and rewind (issue 15), through the real binary on a real git
// repository: a turn with an Edit, a Write of a new file and a Bash call that
// sed -i's one file, deletes another and creates a third; its diff lists all
// five and applies with git apply; the code rewind refuses a file changed by
// hand, then (--force) restores the tree byte for byte; the conversation
// rewind starts a branch whose next request lacks the rewound turn while the
// old session is still listed.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

// treeHashes is every file of dir but .git: its mode and content hash.
func treeHashes(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == ".git" && d.IsDir() {
			return filepath.SkipDir
		}
		if d.IsDir() || d.Name() == ".git" { // a worktree's .git is a file
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fi, _ := os.Lstat(p)
		rel, _ := filepath.Rel(dir, p)
		sum := sha256.Sum256(b)
		out[rel] = fi.Mode().String() + " " + hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func TestCheckpointDiffAndRewind(t *testing.T) {
	e := newEnv(t,
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "r1", Name: "Read", Args: `{"file_path":"hello.txt"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{
			{ID: "e1", Name: "Edit", Args: `{"file_path":"hello.txt","old_string":"world","new_string":"there"}`},
			{ID: "w1", Name: "Write", Args: `{"file_path":"new.txt","content":"fresh file\n"}`},
			{ID: "b1", Name: "Bash", Args: `{"command":"sed -i s/one/ONE/ a.txt && rm b.txt && echo third > c.txt"}`},
		}},
		openaitest.Reply{Text: "changed"},
		openaitest.Reply{Text: "second turn answer"},
		openaitest.Reply{Text: "branch answer"},
	)
	e.write("a.txt", "one\ntwo\n")
	e.write("b.txt", "bee\n")
	git(t, e.repo, "add", ".")
	git(t, e.repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "two files")
	before := treeHashes(t, e.repo)
	copyDir := t.TempDir()
	git(t, e.repo, "worktree", "add", "-q", "--detach", copyDir) // a copy of the before-tree
	git(t, e.repo, "worktree", "lock", copyDir)

	if _, stderr, code := e.run(e.runArgs("--permission-mode", "bypassPermissions", "change things")...); code != 0 {
		t.Fatalf("first turn: %d %s", code, stderr)
	}
	if _, stderr, code := e.run(e.runArgs("--continue", "the second question")...); code != 0 {
		t.Fatalf("second turn: %d %s", code, stderr)
	}
	out, _, _ := e.run("sessions", "--json")
	var list []struct{ ID string }
	if json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 {
		t.Fatalf("sessions: %s", out)
	}
	id := list[0].ID

	diff, stderr, code := e.run("sessions", "diff", id, "--turn", "1")
	if code != 0 {
		t.Fatalf("sessions diff: %d %s", code, stderr)
	}
	var files []string
	for _, l := range strings.Split(diff, "\n") {
		if rest, ok := strings.CutPrefix(l, "diff --git a/"); ok {
			files = append(files, rest[:strings.Index(rest, " ")])
		}
	}
	sort.Strings(files)
	if got := strings.Join(files, " "); got != "a.txt b.txt c.txt hello.txt new.txt" {
		t.Fatalf("turn 1's diff lists %q, want all five changes:\n%s", got, diff)
	}
	if d2, _, _ := e.run("sessions", "diff", id, "--turn", "2"); d2 != "" {
		t.Errorf("turn 2 changed nothing, its diff is:\n%s", d2)
	}
	apply := exec.Command("git", "apply", "-")
	apply.Dir, apply.Stdin = copyDir, strings.NewReader(diff)
	if out, err := apply.CombinedOutput(); err != nil {
		t.Fatalf("git apply: %v\n%s\n%s", err, out, diff)
	}
	after := treeHashes(t, e.repo)
	if applied := treeHashes(t, copyDir); !equalMaps(applied, after) {
		t.Fatalf("the diff applied to the before-tree gives\n%v\nthe session left\n%v", applied, after)
	}

	e.write("c.txt", "changed by hand\n")
	out, stderr, code = e.run("rewind", "--session", id, "--turn", "1", "--code")
	if code == 0 || !strings.Contains(stderr, "c.txt: modified since") {
		t.Fatalf("rewind over a hand edit: exit %d\n%s\n%s", code, out, stderr)
	}
	if e.read("c.txt") != "changed by hand\n" || e.read("hello.txt") != "hello there\n" {
		t.Fatal("a refused rewind changed files")
	}
	if out, stderr, code = e.run("rewind", "--session", id, "--turn", "1", "--code", "--force"); code != 0 {
		t.Fatalf("rewind --force: %d %s %s", code, out, stderr)
	}
	if st := git(t, e.repo, "status", "--porcelain"); st != "" {
		t.Fatalf("git status after the rewind:\n%s", st)
	}
	if got := treeHashes(t, e.repo); !equalMaps(got, before) {
		t.Fatalf("tree after the rewind\n%v\nwant\n%v", got, before)
	}

	out, stderr, code = e.run("rewind", "--session", id, "--turn", "2", "--conversation")
	if code != 0 {
		t.Fatalf("rewind --conversation: %d %s", code, stderr)
	}
	i := strings.Index(out, "new branch session ")
	if i < 0 {
		t.Fatalf("no branch named: %s", out)
	}
	branch := strings.Fields(out[i+len("new branch session "):])[0]
	if _, stderr, code := e.run(e.runArgs("--session", branch, "the branch question")...); code != 0 {
		t.Fatalf("run on the branch: %d %s", code, stderr)
	}
	reqs := e.fake.Requests()
	last, _ := json.Marshal(reqs[len(reqs)-1]["messages"])
	if strings.Contains(string(last), "the second question") || !strings.Contains(string(last), "change things") ||
		!strings.Contains(string(last), "the branch question") {
		t.Fatalf("the branch's request does not hold exactly the turns before the rewound one: %s", last)
	}
	out, _, _ = e.run("sessions", "--json")
	if !strings.Contains(out, id) || !strings.Contains(out, branch) {
		t.Fatalf("both sessions should be listed: %s", out)
	}
	if show, _, _ := e.run("sessions", "show", id); !strings.Contains(show, "session.rewound") || !strings.Contains(show, "checkpoint.recorded") {
		t.Errorf("the session's events lack checkpoint.recorded or session.rewound:\n%s", show)
	}
}

func equalMaps(a, b map[string]string) bool {
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
