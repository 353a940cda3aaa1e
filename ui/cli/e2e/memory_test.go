package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"pincer/core/memory"
	"pincer/core/provider/openai/openaitest"
)

// memRunResult is the part of `pincer run --output-format json`'s result the
// memory tests read.
type memRunResult struct {
	SessionID  string `json:"sessionId"`
	IsError    bool   `json:"isError"`
	Candidates []struct {
		ID, Kind, Op, Name, Target, Status string
	} `json:"candidates"`
}

// runJSON runs `pincer run --output-format json ARGS...` and decodes its result.
func (e *env) runJSON(args ...string) memRunResult {
	e.t.Helper()
	out, stderr, code := e.run(e.runArgs(append([]string{"--output-format", "json"}, args...)...)...)
	var res memRunResult
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &res); err != nil || code != 0 || res.IsError {
		e.t.Fatalf("run %v: exit %d, %v\nout %s\nstderr %s", args, code, err, out, stderr)
	}
	return res
}

// memoryCmd runs `pincer memory ARGS...`, which must succeed.
func (e *env) memoryCmd(args ...string) string {
	e.t.Helper()
	out, stderr, code := e.run(append([]string{"memory"}, args...)...)
	if code != 0 {
		e.t.Fatalf("pincer memory %v: exit %d\n%s%s", args, code, out, stderr)
	}
	return out
}

// projectMemoryDir is the repository's memory dir under the env's data dir.
func (e *env) projectMemoryDir() string {
	root, err := filepath.EvalSymlinks(e.repo)
	if err != nil {
		e.t.Fatal(err)
	}
	return memory.ProjectDir(filepath.Join(e.home, "data"), root)
}

// pendingIDs lists the ids `pincer memory list --pending --json` prints.
func (e *env) pendingIDs() []string {
	e.t.Helper()
	var cs []memory.Candidate
	if err := json.Unmarshal([]byte(e.memoryCmd("list", "--pending", "--json")), &cs); err != nil {
		e.t.Fatal(err)
	}
	var ids []string
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	return ids
}

// TestRememberThatHeadless is the must-show session, headless
// through the real binary: "remember that we use tabs and pnpm" is a
// pending candidate in the run's json result and no file; `pincer memory
// approve` writes the memory file (frontmatter) and its MEMORY.md line; the
// next session's first request carries the index and the file's text; the
// session started before the approval keeps its prompt when continued.
func TestRememberThatHeadless(t *testing.T) {
	e := newEnv(t)
	e.fake.Push(openaitest.Reply{Text: "noted"})
	first := e.runJSON("remember that we use tabs and pnpm")
	if len(first.Candidates) != 1 {
		t.Fatalf("candidates %+v", first.Candidates)
	}
	c := first.Candidates[0]
	dir := e.projectMemoryDir()
	if c.Kind != "memory" || c.Op != "add" || c.Name != "we use tabs and pnpm" || c.Status != "pending" ||
		c.Target != filepath.Join(dir, "we-use-tabs-and-pnpm.md") {
		t.Fatalf("candidate %+v", c)
	}
	if _, err := os.Lstat(dir); !os.IsNotExist(err) {
		t.Fatalf("the memory dir exists before any approval: %v", err)
	}
	if sys := systemText(e.fake.Requests()[0]); strings.Contains(sys, "# Memory") {
		t.Errorf("a memory before any exists:\n%s", sys)
	}
	if ids := e.pendingIDs(); len(ids) != 1 || ids[0] != c.ID {
		t.Fatalf("pending %v, want [%s]", ids, c.ID)
	}
	if out := e.memoryCmd("show", c.ID); !strings.Contains(out, "+We use tabs and pnpm.") || !strings.Contains(out, "MEMORY.md: - [we use tabs and pnpm]") {
		t.Errorf("show:\n%s", out)
	}

	if out := e.memoryCmd("approve", c.ID); !strings.Contains(out, "accepted "+c.ID+": wrote "+c.Target) {
		t.Errorf("approve: %s", out)
	}
	file := readPath(t, c.Target)
	for _, w := range []string{"---\ntype: project\nname: we use tabs and pnpm\ndescription: We use tabs and pnpm.\n", "session: " + first.SessionID, "turn: 1", "---\n\nWe use tabs and pnpm.\n"} {
		if !strings.Contains(file, w) {
			t.Errorf("memory file lacks %q:\n%s", w, file)
		}
	}
	line := "- [we use tabs and pnpm](we-use-tabs-and-pnpm.md) — We use tabs and pnpm.\n"
	if index := readPath(t, filepath.Join(dir, "MEMORY.md")); index != line {
		t.Errorf("MEMORY.md %q, want %q", index, line)
	}
	if ids := e.pendingIDs(); len(ids) != 0 {
		t.Errorf("still pending: %v", ids)
	}
	// The approval reaches the candidate's session log (a workbench showing it drops it).
	if out, _, _ := e.run("sessions", "show", first.SessionID, "--json"); !strings.Contains(out, `"candidate.decided"`) || !strings.Contains(out, `"by":"cli"`) {
		t.Errorf("no candidate.decided by cli in the session's log:\n%.2000s", out)
	}

	e.fake.Push(openaitest.Reply{Text: "hi"})
	next := e.runJSON("hello")
	sys := systemText(e.fake.Requests()[1])
	if next.SessionID == first.SessionID || !strings.Contains(sys, "# Memory") || !strings.Contains(sys, line) ||
		!strings.Contains(sys, "### we-use-tabs-and-pnpm.md\n\n---\ntype: project") {
		t.Errorf("the next session's system prompt lacks the memory:\n%s", sys)
	}
	e.fake.Push(openaitest.Reply{Text: "again"})
	e.runJSON("--session", first.SessionID, "and now?")
	if sys := systemText(e.fake.Requests()[2]); strings.Contains(sys, "# Memory") || strings.Contains(sys, "tabs and pnpm.\n") {
		t.Errorf("the session started before the approval changed its prompt:\n%s", sys)
	}
}

// TestMemoryRejectAndEdit: a rejected candidate writes nothing; approve
// --edit FILE writes FILE's text under the candidate's frontmatter; forget
// proposes a removal that, approved, removes the file and its index line.
func TestMemoryRejectAndEdit(t *testing.T) {
	e := newEnv(t)
	dir := e.projectMemoryDir()
	idOf := func(out string) string {
		f := strings.Fields(strings.TrimPrefix(out, "proposed "))
		return strings.TrimSuffix(f[0], ":")
	}
	rej := idOf(e.memoryCmd("add", "always run gofmt"))
	if out := e.memoryCmd("reject", rej, "--reason", "not now"); !strings.Contains(out, "nothing written") {
		t.Errorf("reject: %s", out)
	}
	if _, err := os.Lstat(dir); !os.IsNotExist(err) {
		t.Fatalf("a rejected candidate made %s: %v", dir, err)
	}
	if _, stderr, code := e.run("memory", "approve", rej); code == 0 || !strings.Contains(stderr, "already decided") {
		t.Errorf("approving a rejected candidate: exit %d %s", code, stderr)
	}

	ed := idOf(e.memoryCmd("add", "we deploy with fly"))
	edit := filepath.Join(t.TempDir(), "edit.md")
	if err := os.WriteFile(edit, []byte("We deploy with fly.io, never on Fridays.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e.memoryCmd("approve", ed, "--edit", edit)
	got := readPath(t, filepath.Join(dir, "we-deploy-with-fly.md"))
	if !strings.Contains(got, "name: we deploy with fly\n") || !strings.HasSuffix(got, "---\n\nWe deploy with fly.io, never on Fridays.\n") {
		t.Errorf("edited memory:\n%s", got)
	}
	if out := e.memoryCmd("files"); !strings.Contains(out, "we-deploy-with-fly.md: project \"we deploy with fly\"") {
		t.Errorf("files:\n%s", out)
	}
	fg := idOf(e.memoryCmd("forget", "we deploy with fly"))
	e.memoryCmd("approve", fg)
	if _, err := os.Lstat(filepath.Join(dir, "we-deploy-with-fly.md")); !os.IsNotExist(err) {
		t.Errorf("forgotten memory still there: %v", err)
	}
	if idx, _ := os.ReadFile(filepath.Join(dir, "MEMORY.md")); len(idx) != 0 {
		t.Errorf("MEMORY.md keeps %q", idx)
	}
}

// TestLearnedSkillApprovedHeadless: a scripted five-step turn's skill
// candidate is listed with --kind skill, approved with the same command,
// and the next session's skill index lists it.
func TestLearnedSkillApprovedHeadless(t *testing.T) {
	e := newEnv(t)
	draft := "---\nname: write-and-check\ndescription: Write a greeting to a file and check it is there\n---\n# Write and check\n\n1. `echo hi > out.txt`\n2. `grep -q hi out.txt`\n"
	e.fake.Push(
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c1", Name: "Bash", Args: `{"command":"echo hi > out.txt"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c2", Name: "Read", Args: `{"file_path":"out.txt"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c3", Name: "Bash", Args: `{"command":"grep -q hi out.txt && echo ok"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c4", Name: "Grep", Args: `{"pattern":"hi"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c5", Name: "Bash", Args: `{"command":"wc -c out.txt"}`}}},
		openaitest.Reply{Text: "out.txt holds hi"},
		openaitest.Reply{Text: draft},
	)
	res := e.runJSON("--permission-mode", "bypassPermissions", "write hi to out.txt and check it")
	if len(res.Candidates) != 1 || res.Candidates[0].Kind != "skill" || res.Candidates[0].Name != "write-and-check" {
		t.Fatalf("candidates %+v", res.Candidates)
	}
	id := res.Candidates[0].ID
	var listed []memory.Candidate
	if err := json.Unmarshal([]byte(e.memoryCmd("list", "--kind", "skill", "--json")), &listed); err != nil || len(listed) != 1 || listed[0].ID != id {
		t.Fatalf("list --kind skill: %+v %v", listed, err)
	}
	if _, err := os.Lstat(res.Candidates[0].Target); !os.IsNotExist(err) {
		t.Fatalf("skill written before approval: %v", err)
	}
	e.memoryCmd("approve", id)
	e.fake.Push(openaitest.Reply{Text: "ok"})
	e.runJSON("hello")
	reqs := e.fake.Requests()
	if sys := systemText(reqs[len(reqs)-1]); !strings.Contains(sys, "- write-and-check: Write a greeting to a file and check it is there") {
		t.Errorf("the next session's skill index lacks /write-and-check:\n%s", sys)
	}
	e.fake.Push(openaitest.Reply{Text: "ran it"})
	e.runJSON("/write-and-check")
	reqs = e.fake.Requests()
	if got := lastUserText(reqs[len(reqs)-1]); !strings.Contains(got, "# Write and check") || !strings.Contains(got, "grep -q hi out.txt") {
		t.Errorf("/write-and-check sent %q", got)
	}
}

func readPath(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMemoryRepairAfterFailedWrite: an approval whose write fails (the
// project's memory dir replaced by a symlink, which the writer refuses)
// leaves the candidate accepted and unwritten — the state a kill -9 between
// the decision and the write leaves — and writes nothing through the
// symlink; `pincer memory repair` writes it once the dir is sound.
func TestMemoryRepairAfterFailedWrite(t *testing.T) {
	e := newEnv(t)
	dir := e.projectMemoryDir()
	out := e.memoryCmd("add", "we ship on tuesdays")
	id := strings.TrimSuffix(strings.Fields(strings.TrimPrefix(out, "proposed "))[0], ":")
	elsewhere := t.TempDir()
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, dir); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := e.run("memory", "approve", id); code == 0 || !strings.Contains(stderr, "symlink") {
		t.Fatalf("approve through a symlinked dir: exit %d %s", code, stderr)
	}
	if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
		t.Fatalf("written through the symlink: %v", ents)
	}
	var c memory.Candidate
	if err := json.Unmarshal([]byte(e.memoryCmd("show", id, "--json")), &c); err != nil || c.Status != "accepted" || !c.AppliedAt.IsZero() {
		t.Fatalf("after the failed write: %+v %v", c, err)
	}
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if out := e.memoryCmd("repair"); !strings.Contains(out, "wrote "+c.Target) {
		t.Errorf("repair: %s", out)
	}
	if got := readPath(t, c.Target); !strings.Contains(got, "We ship on tuesdays.") {
		t.Errorf("repaired file:\n%s", got)
	}
	if out := e.memoryCmd("repair"); !strings.Contains(out, "nothing to repair") {
		t.Errorf("second repair: %s", out)
	}
}

// TestMemoryConfigAndObserver: a stated preference is proposed by the
// post-turn observer (origin observer), within [memory] max_per_session;
// observe = false stops it; enabled = false offers no Remember tool, no
// snapshot and no candidate; a project's [memory] is a warning, not applied.
func TestMemoryConfigAndObserver(t *testing.T) {
	e := newEnv(t)
	cfg := filepath.Join(e.home, "config.toml")
	mustWrite(t, cfg, "[memory]\nmax_per_session = 1\n", 0o600)
	e.fake.Push(openaitest.Reply{Text: "ok"})
	res := e.runJSON("From now on, use pnpm instead of npm. Fix the build.")
	if len(res.Candidates) != 1 || res.Candidates[0].Name != "use pnpm instead of npm" {
		t.Fatalf("candidates %+v", res.Candidates)
	}
	e.fake.Push(openaitest.Reply{Text: "ok"})
	if res := e.runJSON("--session", res.SessionID, "Always run gofmt before committing."); len(res.Candidates) != 0 {
		t.Errorf("over max_per_session: %+v", res.Candidates)
	}
	tools := func(req map[string]any) string {
		var names []string
		for _, tl := range req["tools"].([]any) {
			names = append(names, tl.(map[string]any)["function"].(map[string]any)["name"].(string))
		}
		return " " + strings.Join(names, " ") + " "
	}
	if got := tools(e.fake.Requests()[0]); !strings.Contains(got, " Remember ") {
		t.Errorf("memory on, tools %s", got)
	}

	mustWrite(t, cfg, "[memory]\nobserve = false\n", 0o600)
	e.fake.Push(openaitest.Reply{Text: "ok"})
	if res := e.runJSON("Always run gofmt before committing."); len(res.Candidates) != 0 {
		t.Errorf("observe = false: %+v", res.Candidates)
	}

	id := strings.TrimSuffix(strings.Fields(strings.TrimPrefix(e.memoryCmd("add", "we use tabs"), "proposed "))[0], ":")
	e.memoryCmd("approve", id)
	mustWrite(t, cfg, "[memory]\nenabled = false\n", 0o600)
	e.fake.Push(openaitest.Reply{Text: "ok"})
	if res := e.runJSON("remember that we use pnpm"); len(res.Candidates) != 0 {
		t.Errorf("enabled = false: %+v", res.Candidates)
	}
	reqs := e.fake.Requests()
	last := reqs[len(reqs)-1]
	if strings.Contains(tools(last), " Remember ") || strings.Contains(systemText(last), "# Memory") {
		t.Errorf("enabled = false: tools %s, prompt has memory: %v", tools(last), strings.Contains(systemText(last), "# Memory"))
	}

	mustWrite(t, cfg, "", 0o600)
	e.mkfile(".pincer/config.toml", "[memory]\nenabled = false\n")
	e.fake.Push(openaitest.Reply{Text: "ok"})
	_, stderr, code := e.run(e.runArgs("hello")...)
	reqs = e.fake.Requests()
	if code != 0 || !strings.Contains(stderr, "[memory] in a project file is not applied") || !strings.Contains(systemText(reqs[len(reqs)-1]), "# Memory") {
		t.Errorf("project [memory]: exit %d, stderr %s", code, stderr)
	}
}

// TestMemoryRepairAfterKill is the crash between a decision and its write:
// while the test holds the lock of the project's memory dir (the writer's
// flock), `pincer memory approve` records the acceptance and waits at the
// lock; killed there (SIGKILL), it leaves the candidate accepted and no file.
// `pincer memory repair` writes it.
func TestMemoryRepairAfterKill(t *testing.T) {
	e := newEnv(t)
	dir := e.projectMemoryDir()
	out := e.memoryCmd("add", "we tag releases on main")
	id := strings.TrimSuffix(strings.Fields(strings.TrimPrefix(out, "proposed "))[0], ":")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	lock, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	approve := e.command("memory", "approve", id)
	if err := approve.Start(); err != nil {
		t.Fatal(err)
	}
	show := func() memory.Candidate {
		var c memory.Candidate
		if err := json.Unmarshal([]byte(e.memoryCmd("show", id, "--json")), &c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	deadline := time.Now().Add(30 * time.Second)
	for show().Status != "accepted" {
		if time.Now().After(deadline) {
			_ = approve.Process.Kill()
			t.Fatal("the approval was never recorded")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := approve.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = approve.Wait()
	_ = syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	c := show()
	if c.Status != "accepted" || !c.AppliedAt.IsZero() {
		t.Fatalf("after the kill: %+v", c)
	}
	if _, err := os.Lstat(c.Target); !os.IsNotExist(err) {
		t.Fatalf("the file exists after the kill: %v", err)
	}
	if out := e.memoryCmd("repair"); !strings.Contains(out, "wrote "+c.Target) {
		t.Errorf("repair: %s", out)
	}
	if got := readPath(t, c.Target); !strings.Contains(got, "We tag releases on main.") {
		t.Errorf("repaired file:\n%s", got)
	}
	if idx := readPath(t, filepath.Join(dir, "MEMORY.md")); !strings.Contains(idx, "(we-tag-releases-on-main.md)") {
		t.Errorf("MEMORY.md: %q", idx)
	}
}
