package app

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/event"
	"pincer/core/memory"
	"pincer/core/permission"
	"pincer/core/provider/openai/openaitest"
)

// learnEnv is a temporary git repository, a private PINCER_HOME and HOME,
// the store opened in the process, and the scripted Chat Completions server.
type learnEnv struct {
	repo, home string
	fake       *openaitest.Server
	opts       Options
}

func newLearnEnv(t *testing.T, replies ...openaitest.Reply) *learnEnv {
	t.Helper()
	e := &learnEnv{repo: t.TempDir(), home: t.TempDir(), fake: openaitest.New(replies...)}
	t.Cleanup(e.fake.Close)
	t.Setenv("HOME", e.home)
	t.Setenv("PINCER_HOME", filepath.Join(e.home, "pincer"))
	t.Setenv("PINCER_NO_DAEMON", "1")
	t.Setenv("PINCER_API_KEY", "test-key")
	t.Setenv("PINCER_MODEL", "fake/test-model")
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "init"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = e.repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	e.opts = Options{Dir: e.repo, BaseURL: e.fake.BaseURL(), NoSandbox: true, Mode: permission.ModeBypass}
	return e
}

// start prepares and starts a run of the environment (a new session).
func (e *learnEnv) start(t *testing.T) *Run {
	t.Helper()
	s, err := Prepare(e.opts)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Start(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// taskReplies is a multi-step task the model does (five tool calls, the
// default minimum): write a file, read it, check it, answer; then its side
// call's draft.
func taskReplies(repo, draft string) []openaitest.Reply {
	return []openaitest.Reply{
		{ToolCalls: []openaitest.Call{{ID: "c1", Name: "Bash", Args: `{"command":"echo hi > out.txt"}`}}},
		{ToolCalls: []openaitest.Call{{ID: "c2", Name: "Read", Args: `{"file_path":"` + filepath.Join(repo, "out.txt") + `"}`}}},
		{ToolCalls: []openaitest.Call{{ID: "c3", Name: "Bash", Args: `{"command":"grep -q hi out.txt && echo ok"}`}}},
		{ToolCalls: []openaitest.Call{{ID: "c4", Name: "Grep", Args: `{"pattern":"hi"}`}}},
		{ToolCalls: []openaitest.Call{{ID: "c5", Name: "Bash", Args: `{"command":"wc -c out.txt"}`}}},
		{Text: "out.txt holds hi"},
		{Text: draft},
	}
}

const echoDraft = "---\nname: write-and-check\ndescription: Write a greeting to a file and check it is there\n---\n# Write and check\n\n## Steps\n1. `echo hi > out.txt`\n2. `grep -q hi out.txt`\n"

// TestLearnedSkillReachesTheNextSession is the scenario: a scripted
// multi-step turn that worked yields a pending skill candidate (its event in
// the session's log before turn.completed, no file written); accepting it
// writes the SKILL.md, the running session's catalog and index stay as they
// began, and the next session lists /write-and-check (marked learned), has
// its description in the skill index and runs it as /write-and-check.
func TestLearnedSkillReachesTheNextSession(t *testing.T) {
	e := newLearnEnv(t)
	e.fake.Push(taskReplies(e.repo, echoDraft)...)
	ctx := context.Background()
	r := e.start(t)
	defer func() { _ = r.Close() }()
	res, err := r.Agent.SubmitTurn(ctx, r.SessionID, "write hi to out.txt and check it")
	if err != nil || res.Outcome != "completed" {
		t.Fatalf("turn: %+v %v", res, err)
	}
	if r.Memory == nil {
		t.Fatal("the run has no memory Manager")
	}
	cs, err := r.Memory.Store.ListCandidates(ctx, memory.Filter{Kind: memory.KindSkill})
	if err != nil || len(cs) != 1 {
		t.Fatalf("skill candidates %+v, %v", cs, err)
	}
	c := cs[0]
	if c.Status != memory.StatusPending || c.Name != "write-and-check" || c.SessionID != r.SessionID || c.Turn != 1 ||
		c.Origin != memory.OriginSkillObserver || c.Scope != memory.ScopeProject {
		t.Errorf("candidate %+v", c)
	}
	if !strings.Contains(c.Content, "source:\n  session: '"+r.SessionID+"'\n  turn: 1\n") {
		t.Errorf("content:\n%s", c.Content)
	}
	if _, err := os.Lstat(c.Target); !os.IsNotExist(err) {
		t.Fatalf("the skill file exists before any approval: %v", err)
	}
	evs, err := r.Store.ListEvents(ctx, r.SessionID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	proposed, done := -1, -1
	for i, ev := range evs {
		switch ev.Type {
		case event.CandidateProposed:
			proposed = i
		case event.TurnCompleted:
			done = i
		}
	}
	if proposed < 0 || proposed > done {
		t.Errorf("candidate.proposed at %d, turn.completed at %d", proposed, done)
	}

	if _, err := r.Memory.Decide(ctx, r.SessionID, c.ID, memory.Decision{Action: memory.Accept}); err != nil {
		t.Fatalf("accept: %v", err)
	}
	if data, err := os.ReadFile(c.Target); err != nil || string(data) != c.Content {
		t.Fatalf("written %q, %v", data, err)
	}
	if _, ok := r.Skills.Lookup("write-and-check"); ok || strings.Contains(r.SystemPrompt(), "write-and-check") {
		t.Error("the running session's catalog changed: it is frozen until the next session")
	}
	_ = r.Close()

	s2, err := Prepare(e.opts)
	if err != nil {
		t.Fatal(err)
	}
	sk, ok := s2.Skills.Lookup("write-and-check")
	if !ok || sk.Learned == nil || sk.Learned.Session != r.SessionID || sk.Learned.Turn != 1 || len(sk.AllowedTools) != 0 {
		t.Fatalf("next session's skill %+v (found %v)", sk, ok)
	}
	if !strings.Contains(s2.SystemPrompt(), "- write-and-check: Write a greeting to a file and check it is there\n") {
		t.Errorf("the next session's skill index lacks it:\n%s", s2.SystemPrompt())
	}
	found := false
	for _, cmd := range s2.Commands() {
		if cmd.Name == "/write-and-check" {
			found = cmd.Source == "session "+r.SessionID+", turn 1"
		}
	}
	if !found {
		t.Errorf("/write-and-check not listed as learned: %+v", s2.Commands())
	}
	in, ok := s2.Invocation("/write-and-check")
	if !ok || in.Expand == nil {
		t.Fatalf("/write-and-check is no invocation: %+v", in)
	}
	text, err := in.Expand(ctx, readOnly{})
	if err != nil || !strings.Contains(text, "grep -q hi out.txt") {
		t.Errorf("/write-and-check expands to %q, %v", text, err)
	}
}
