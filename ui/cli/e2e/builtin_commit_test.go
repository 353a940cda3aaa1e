package e2e

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

// commitReplies are the scripted model's answers to /commit: one Bash call
// staging and committing, then a last word.
func commitReplies() []openaitest.Reply {
	return []openaitest.Reply{
		{ToolCalls: []openaitest.Call{{ID: "c1", Name: "Bash",
			Args: `{"command":"git add hello.txt greet.txt && git commit -q -m 'feat: greet pincer'","description":"commit the change"}`}}},
		{Text: "committed"},
	}
}

// commitRepo readies e's repository for /commit: an identity in the
// repository's own config, an unstaged change and an untracked file.
func commitRepo(t *testing.T, e *env) {
	t.Helper()
	e.git("config", "user.email", "t@example.com")
	e.git("config", "user.name", "t")
	e.write("hello.txt", "hello pincer\n")
	e.write("greet.txt", "greetings\n")
}

func (e *env) git(args ...string) string {
	e.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = e.repo
	out, err := cmd.CombinedOutput()
	if err != nil {
		e.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// firstRequestHas checks that the model's first request carried the context
// /commit gathered: the unstaged diff, the untracked file, the style commit.
func firstRequestHas(t *testing.T, e *env) {
	t.Helper()
	reqs := e.fake.Requests()
	if len(reqs) == 0 {
		t.Fatal("the model was never called")
	}
	user := requestText(t, reqs[0])
	for _, want := range []string{"Create a git commit", "-hello world", "+hello pincer", "?? greet.txt", "init", "git commit -m"} {
		if !strings.Contains(user, want) {
			t.Errorf("the first request's user message lacks %q:\n%s", want, user)
		}
	}
}

// TestBuiltinCommitHeadlessIsDenied: `pincer run "/commit"` gathers the same
// context, but with nobody to approve, the model's git commit is denied and
// no commit is made.
func TestBuiltinCommitHeadlessIsDenied(t *testing.T) {
	e := newEnv(t, commitReplies()...)
	commitRepo(t, e)
	out, stderr, code := e.run(e.runArgs("--no-sandbox", "--output-format", "stream-json", "/commit")...)
	firstRequestHas(t, e)
	if log := e.git("log", "--oneline"); strings.Count(log, "\n") != 1 || strings.Contains(log, "feat: greet") {
		t.Fatalf("a commit was made headless:\n%s", log)
	}
	if !strings.Contains(out, `"decision":"deny"`) {
		t.Errorf("no denial in the stream (exit %d):\n%s\n%s", code, out, stderr)
	}
}

// requestText is the text of a Chat Completions request's user messages, as
// the fake provider received it.
func requestText(t *testing.T, req map[string]any) string {
	t.Helper()
	b, _ := json.Marshal(req["messages"])
	var msgs []map[string]any
	if err := json.Unmarshal(b, &msgs); err != nil {
		t.Fatalf("request messages: %v", err)
	}
	user := ""
	for _, m := range msgs {
		if m["role"] != "user" {
			continue
		}
		s, ok := m["content"].(string)
		if !ok {
			cb, _ := json.Marshal(m["content"])
			s = string(cb)
		}
		user += s + "\n"
	}
	return user
}
